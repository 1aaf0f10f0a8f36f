import type { FileSink } from "bun";

/**
 * A streaming writer of POSIX ustar archives: enough for a backup that any `tar -xf` restores,
 * without holding the release files in memory (Bun.Archive builds archives in memory).
 * Format: a 512-byte header per entry, the data padded to 512 bytes, two zero blocks at the end.
 */
const BLOCK = 512;
const NAME_MAX = 100;
const PREFIX_MAX = 155;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= NAME_MAX) return { name: path, prefix: "" };
  const cut = path.lastIndexOf("/", PREFIX_MAX);
  const prefix = path.slice(0, cut);
  const name = path.slice(cut + 1);
  if (cut <= 0 || Buffer.byteLength(name) > NAME_MAX || Buffer.byteLength(prefix) > PREFIX_MAX) {
    throw new Error(`path too long for a tar entry: ${path}`);
  }
  return { name, prefix };
}

export function tarHeader(path: string, size: number, mtimeSeconds: number, type: "file" | "dir"): Uint8Array {
  const header = Buffer.alloc(BLOCK, 0);
  const { name, prefix } = splitName(path);
  header.write(name, 0, NAME_MAX, "utf8");
  // Owner only, like the data dir they restore into (docs/deploy.md "Security notes"): `tar -xf`
  // gives the files these modes.
  header.write(octal(type === "dir" ? 0o700 : 0o600, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii"); // uid
  header.write(octal(0, 8), 116, "ascii"); // gid
  header.write(octal(size, 12), 124, "ascii");
  header.write(octal(Math.floor(mtimeSeconds), 12), 136, "ascii");
  header.write("        ", 148, "ascii"); // checksum is computed with this field as spaces
  header.write(type === "dir" ? "5" : "0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  header.write(prefix, 345, PREFIX_MAX, "utf8");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + " ", 148, "ascii");
  return header;
}

export class TarWriter {
  constructor(private sink: FileSink) {}

  directory(path: string, mtimeSeconds: number): void {
    this.sink.write(tarHeader(path.endsWith("/") ? path : path + "/", 0, mtimeSeconds, "dir"));
  }

  /** Streams a file from disk into the archive; `size` must be the file's size. */
  async file(path: string, source: string, size: number, mtimeSeconds: number): Promise<void> {
    this.sink.write(tarHeader(path, size, mtimeSeconds, "file"));
    let written = 0;
    for await (const chunk of Bun.file(source).stream()) {
      this.sink.write(chunk);
      written += chunk.byteLength;
      await this.sink.flush();
    }
    if (written !== size) throw new Error(`${path} changed size while being archived`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) this.sink.write(new Uint8Array(pad));
  }

  async finish(): Promise<void> {
    this.sink.write(new Uint8Array(BLOCK * 2));
    await this.sink.end();
  }
}
