import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { CliError } from "../../common/errors.ts";
import { SCREENSHOT_MAX_BYTES } from "../../screenshots/limits.ts";
import type { ScreenshotView } from "../../screenshots/screenshots.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { tokenProject } from "./project.ts";

/**
 * `phrasebook screenshots push DIR` (docs/translators.md "Screenshots", docs/automation.md
 * "screenshots push"): every PNG, JPEG and WebP of DIR uploaded as the screenshot named by its
 * file name without extension, sent as the type of its extension (the server refuses a file whose
 * bytes are another type), its keys set from `NAME.json` beside it. What the server already has
 * is not sent again, so pushing the same folder twice changes nothing. A `write` token.
 */
const TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp" };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Wanted {
  file: string;
  name: string;
  type: string;
  /** From NAME.json; null when there is none (the keys are left as they are). */
  keys: { key: string; box: Box | null }[] | null;
}

function isBox(v: unknown): v is Box {
  const b = v as Record<string, unknown>;
  return typeof b === "object" && b !== null && ["x", "y", "width", "height"].every((k) => Number.isInteger(b[k]) && (b[k] as number) >= 0);
}

/** The keys of `NAME.json`: `{"keys": ["key", {"key": "k", "box": {"x", "y", "width", "height"}}]}`. */
function keysFile(path: string): Wanted["keys"] {
  if (!existsSync(path)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CliError(`${path}: not valid JSON (${(err as Error).message.split("\n")[0]})`, 1);
  }
  const list = (data as { keys?: unknown })?.keys;
  if (!Array.isArray(list)) throw new CliError(`${path}: needs {"keys": [...]}, a list of keys or {"key", "box"} objects`, 1);
  return list.map((item, i) => {
    if (typeof item === "string") return { key: item, box: null };
    const k = item as { key?: unknown; box?: unknown };
    if (typeof k?.key !== "string") throw new CliError(`${path}: keys[${i}] is neither a key nor {"key": ..., "box": ...}`, 1);
    if (k.box !== undefined && k.box !== null && !isBox(k.box)) throw new CliError(`${path}: keys[${i}].box needs whole numbers x, y, width and height`, 1);
    return { key: k.key, box: (k.box as Box | undefined) ?? null };
  });
}

/** The images of `dir` by name, each name once. */
function wanted(dir: string): Wanted[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`${dir}: not a folder`, 1);
  const byName = new Map<string, Wanted>();
  for (const file of readdirSync(dir).sort()) {
    const ext = extname(file);
    const type = TYPES[ext.toLowerCase()];
    if (!type || !statSync(join(dir, file)).isFile()) continue;
    const name = file.slice(0, -ext.length);
    const twin = byName.get(name);
    if (twin) throw new CliError(`${join(dir, twin.file)} and ${join(dir, file)} would both be the screenshot "${name}"`, 1);
    byName.set(name, { file, name, type, keys: keysFile(join(dir, `${name}.json`)) });
  }
  return [...byName.values()];
}

const boxKey = (b: Box | null) => (b ? `${b.x},${b.y},${b.width},${b.height}` : "");
function sameKeys(a: { key: string; box: Box | null }[], b: { key: string; box: Box | null }[]): boolean {
  const line = (list: typeof a) => list.map((k) => `${k.key}\0${boxKey(k.box)}`).sort().join("\n");
  return line(a) === line(b);
}

export async function runScreenshots(args: ParsedArgs): Promise<number> {
  const [, sub, dir, ...rest] = args.words;
  if (sub !== "push" || dir === undefined || rest.length > 0) throw new CliError('usage: phrasebook screenshots push DIR (see phrasebook screenshots --help)', 1);
  const images = wanted(dir);
  if (images.length === 0) throw new CliError(`${dir}: no .png, .jpg, .jpeg or .webp file to push`, 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)));
  const project = await tokenProject(client, "screenshots push");
  const known = new Map(
    (await client.dashboard<{ items: ScreenshotView[] }>("screenshots push", "GET", `/projects/${project.id}/screenshots`)).items.map((s) => [s.name, s]),
  );
  const { createHash } = await import("node:crypto");
  const counts = { uploaded: 0, keys: 0, unchanged: 0 };
  for (const image of images) {
    const path = join(dir, image.file);
    const bytes = new Uint8Array(readFileSync(path));
    if (bytes.byteLength > SCREENSHOT_MAX_BYTES) throw new CliError(`${path}: ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB; a screenshot is at most ${SCREENSHOT_MAX_BYTES / 1024 / 1024} MB`, 1);
    const what = `screenshots push ${path}`;
    let shot = known.get(image.name);
    const done: string[] = [];
    if (shot?.sha256 !== createHash("sha256").update(bytes).digest("hex")) {
      shot = await client.dashboard<ScreenshotView>(what, "POST", `/projects/${project.id}/screenshots?name=${encodeURIComponent(image.name)}`, { file: { bytes, type: image.type } });
      done.push(`${shot.width} x ${shot.height} uploaded`);
      counts.uploaded++;
    }
    if (image.keys && !sameKeys(image.keys, shot!.keys)) {
      await client.dashboard(what, "PUT", `/projects/${project.id}/screenshots/${shot!.id}/keys`, { json: JSON.stringify({ keys: image.keys }) });
      done.push(`${image.keys.length} key${image.keys.length === 1 ? "" : "s"} set`);
      counts.keys++;
    }
    if (done.length === 0) counts.unchanged++;
    await print(`${path}: ${done.length > 0 ? done.join(", ") : "unchanged"}\n`);
  }
  await print(`${images.length} screenshot${images.length === 1 ? "" : "s"}: ${counts.uploaded} uploaded, ${counts.keys} with new keys, ${counts.unchanged} unchanged\n`);
  return 0;
}
