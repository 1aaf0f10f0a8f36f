/**
 * Images for the screenshot tests: the fixtures Chromium drew (test/fixtures/screenshots: a PNG, a
 * JPEG and a lossy WebP of 320 x 200), and files made here byte by byte to be what an attacker
 * sends: a PNG that declares any size (an image bomb is a few hundred bytes that declare 100,000 x
 * 100,000 pixels), files with a second file after their end (polyglots), WebP's other headers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";

const DIR = join(ROOT, "test", "fixtures", "screenshots");
export const PNG = new Uint8Array(readFileSync(join(DIR, "cart.png")));
export const JPEG = new Uint8Array(readFileSync(join(DIR, "cart.jpg")));
export const WEBP = new Uint8Array(readFileSync(join(DIR, "cart.webp")));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A PNG whose header declares `width` x `height` (its pixel data is one deflated row of zeros, whatever it declares). */
export function pngOf(width: number, height: number, extra: Uint8Array[] = []): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const idat = Bun.deflateSync(new Uint8Array(Math.min(width, 1024) + 1));
  return concat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), ...extra, chunk("IDAT", idat), chunk("IEND", new Uint8Array()));
}

export const text = (s: string) => new TextEncoder().encode(s);

/** A tEXt chunk: PNG's own place for text, where a polyglot can hide markup. */
export const textChunk = (s: string) => chunk("tEXt", text(`Comment\0${s}`));

/** A WebP whose first chunk is `VP8L` (lossless) or `VP8X` (extended), declaring its size. */
export function webpOf(kind: "VP8L" | "VP8X", width: number, height: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(22);
  if (kind === "VP8L") {
    body[0] = 0x2f;
    const bits = (width - 1) | ((height - 1) << 14);
    new DataView(body.buffer).setUint32(1, bits >>> 0, true);
  } else {
    const v = new DataView(body.buffer);
    v.setUint32(4, width - 1, true); // 24 bits, little-endian (the 4th byte is the next field's)
    v.setUint32(7, height - 1, true);
    body[10] = 0;
  }
  const chunkHeader = concat(text(kind), new Uint8Array([body.length, 0, 0, 0]));
  const riffBody = concat(text("WEBP"), chunkHeader, body);
  const size = new Uint8Array(4);
  new DataView(size.buffer).setUint32(0, riffBody.length, true);
  return concat(text("RIFF"), size, riffBody);
}
