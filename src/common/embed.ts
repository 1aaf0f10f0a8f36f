/**
 * Build-time reading, imported with `{ type: "macro" }`: Bun runs it while it transpiles (at
 * `bun src/main.ts` start and during `bun build --compile`) and inlines the returned string, so the
 * file lives inside the executable and nothing is read from disk or the network at run time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** A text file of the repository (or of an installed package under node_modules/), as is. */
export function readText(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/**
 * The SHA-256 hex of a file of the repository, at build time: a large file built into the executable
 * (`with { type: "file" }`) gets its content-hashed name without being read at start.
 */
export function fileSha256(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(join(ROOT, path))).digest("hex");
}
