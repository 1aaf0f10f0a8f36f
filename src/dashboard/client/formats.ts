import { config } from "./config.ts";

/**
 * The file formats as the server's registry lists them in the page's config (docs/formats.md):
 * every one can be imported; the bundle formats are what a release ships.
 */
export const importFormats = () => config.formats;
export const bundleFormats = () => config.formats.filter((f) => f.bundle);

/** "JSON, YAML or ARB" (`joiner` "or"), "JSON, YAML and ARB" (`joiner` "and"). */
export function formatNames(formats: { name: string }[], joiner: "or" | "and"): string {
  const names = formats.map((f) => f.name.toUpperCase());
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} ${joiner} ${names.at(-1)}`;
}

/** The format a file's extension names, or null. */
export function formatOfFile(fileName: string): string | null {
  const ext = fileName.toLowerCase().split(".").pop() ?? "";
  return importFormats().find((f) => f.extensions.includes(ext))?.name ?? null;
}

/** The file picker's `accept`: every extension, then every media type. */
export function acceptAttribute(): string {
  const formats = importFormats();
  return [...new Set([...formats.flatMap((f) => f.extensions.map((ext) => `.${ext}`)), ...formats.map((f) => f.media_type)])].join(",");
}
