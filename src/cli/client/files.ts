import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CliError } from "../../common/errors.ts";
import { randomString } from "../../common/ids.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A local file as text, or one line saying why not (exit 1). */
export function readTextFile(path: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a folder, not a file" : code === "EACCES" ? "permission denied" : (err as Error).message}`, 1);
  }
  // UTF-16 with a byte order mark (Apple's `.strings` often are): decoded by the mark (docs/formats.md "Apple").
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return utf8.decode(bytes);
  } catch {
    throw new CliError(`${path}: not UTF-8 text${bytes.includes(0) ? " (it looks like UTF-16 without a byte order mark: save it as UTF-8, or as UTF-16 with a BOM)" : ""}`, 1);
  }
}

/**
 * Writes `bytes` to `path` so that it is either the old file or the new one, never half of one
 * (docs/product.md §6): a temporary file beside it (same folder, so the rename cannot cross file
 * systems), flushed, then renamed over the target. The folder is created when missing.
 */
export function writeAtomically(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomString(8)}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(temp, "wx", 0o644);
    try {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`cannot write ${path}: ${e.code ?? e.message}`, 1);
  }
}
