import { closeSync, constants, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CliError } from "../../common/errors.ts";
import { randomString } from "../../common/ids.ts";
import { IMPORT_LIMITS } from "../../formats/read.ts";
import { megabytes } from "./progress.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

let treeRoot: string | undefined;

/**
 * The working tree the client reads from: the git work tree around the current directory, else
 * the current directory itself (docs/automation.md "What the client trusts"). Real path, so a
 * file's real path can be compared with it.
 */
export function workingTree(): string {
  if (treeRoot) return treeRoot;
  const cwd = realpathSync(process.cwd());
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return (treeRoot = dir);
    if (dirname(dir) === dir) return (treeRoot = cwd);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function openFailure(path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT" ? "no such file"
    : code === "EISDIR" ? "is a folder, not a file"
    : code === "EACCES" ? "permission denied"
    : code === "ELOOP" ? "is a symlink that changed while it was read"
    : (err as Error).message;
  return new CliError(`${path}: ${why}`, 1);
}

/**
 * A local file as text, or one line saying why not (exit 1). Only a regular file inside the working
 * tree is read: its real path (every symlink resolved) must lie in it, it is opened without
 * following a last symlink and without blocking (a FIFO cannot hang the client), and its size is
 * checked on the open descriptor before a byte is read (docs/automation.md "What the client trusts").
 */
export function readTextFile(path: string, maxBytes: number = IMPORT_LIMITS.bytes): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    throw openFailure(path, err);
  }
  const root = workingTree();
  if (!inside(root, real)) {
    throw new CliError(`${path}: is outside the working tree ${root}${real !== resolve(path) ? ` (a symlink to ${real})` : ""}; the client reads only files inside it`, 1);
  }
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    throw openFailure(path, err);
  }
  let bytes: Buffer;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new CliError(`${path}: is a folder, not a file`, 1);
    if (!stat.isFile()) throw new CliError(`${path}: is not a regular file (a device, FIFO or socket); the client reads only regular files`, 1);
    if (stat.size > maxBytes) throw new CliError(`${path}: is ${megabytes(stat.size)}, larger than the ${maxBytes / 1024 / 1024} MB a file may have`, 1);
    // Read at most one byte past the size: a file that grows while read is refused, not followed.
    bytes = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (let n; length < bytes.byteLength && (n = readSync(fd, bytes, length, bytes.byteLength - length, null)) > 0; ) length += n;
    if (length > stat.size) throw new CliError(`${path}: grew while it was read`, 1);
    bytes = bytes.subarray(0, length);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw openFailure(path, err);
  } finally {
    closeSync(fd);
  }
  // UTF-16 with a byte order mark (Apple's `.strings` often are): decoded by the mark (docs/formats.md "Apple").
  // Strictly: a lone surrogate or an odd byte would otherwise become U+FFFD and be pushed as that.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : null;
  if (utf16) {
    try {
      return new TextDecoder(utf16, { fatal: true }).decode(bytes.subarray(2));
    } catch {
      throw new CliError(`${path}: not valid UTF-16 (a lone surrogate, or an odd number of bytes), though it starts with a UTF-16 byte order mark`, 1);
    }
  }
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

/**
 * A file being written beside its target (same folder, so the rename cannot cross file systems):
 * a download streams into `fd`, and the target is replaced only by `commit`, whole (docs/product.md §6).
 */
export class PendingFile {
  readonly temp: string;
  fd: number | undefined;

  constructor(readonly path: string) {
    const dir = dirname(path);
    this.temp = join(dir, `.${basename(path)}.${randomString(8)}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      this.fd = openSync(this.temp, "wx", 0o644);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new CliError(`cannot write ${path}: ${e.code ?? e.message}`, 1);
    }
  }

  /** The file's descriptor, open for writing. */
  get descriptor(): number {
    if (this.fd === undefined) throw new Error("PendingFile: already closed");
    return this.fd;
  }

  /** Flushes and closes the temporary file (before it is read back or committed). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  commit(): void {
    try {
      this.close();
      renameSync(this.temp, this.path);
    } catch (err) {
      this.discard();
      const e = err as NodeJS.ErrnoException;
      throw new CliError(`cannot write ${this.path}: ${e.code ?? e.message}`, 1);
    }
  }

  discard(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
  }
}
