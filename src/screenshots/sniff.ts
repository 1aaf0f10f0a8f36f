import { badRequest } from "../common/errors.ts";
import { SCREENSHOT_SIDE_MAX_PIXELS, SCREENSHOT_TYPES } from "./limits.ts";

/**
 * What an uploaded image is, from its bytes alone (docs/translators.md "Screenshots"): PNG, JPEG
 * or WebP by their signatures, the size read from the header (PNG's IHDR, JPEG's start of frame,
 * WebP's VP8/VP8L/VP8X chunk), nothing decoded. Refused: any other type (SVG, GIF, HTML), a side
 * over SCREENSHOT_SIDE_MAX_PIXELS (an image bomb declares 100,000 x 100,000 in a few hundred
 * bytes), a file whose structure does not end where its format ends (bytes after PNG's IEND, JPEG's
 * end of image or WebP's RIFF size: where a polyglot keeps its second file), and one that holds
 * markup a browser would run if it ever took the file for a page.
 */
export type ImageType = (typeof SCREENSHOT_TYPES)[number];

export interface SniffedImage {
  type: ImageType;
  width: number;
  height: number;
}

const refuse = (why: string) => badRequest(`invalid image: ${why}`);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function u32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** PNG: the signature, IHDR first, then chunk by chunk to IEND, which must be the file's end. */
function png(b: Uint8Array): SniffedImage {
  if (b.length < 33 || ascii(b, 12, 4) !== "IHDR" || u32(b, 8) !== 13) throw refuse("a PNG must begin with its IHDR chunk");
  const width = u32(b, 16);
  const height = u32(b, 20);
  let at = 8;
  for (;;) {
    if (at + 12 > b.length) throw refuse("the PNG ends inside a chunk (no IEND)");
    const length = u32(b, at);
    const type = ascii(b, at + 4, 4);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > b.length) throw refuse(`the PNG's ${JSON.stringify(type)} chunk runs past the end of the file`);
    if (type === "IEND") {
      if (end !== b.length) throw refuse(`${b.length - end} bytes follow the PNG's end (IEND): a file hidden in an image is refused`);
      return { type: "image/png", width, height };
    }
    at = end;
  }
}

/** JPEG's start-of-frame markers (C0-CF but DHT C4, JPG C8 and DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: segment by segment to the first start of frame (the size), and the file must end with its end-of-image marker. */
function jpeg(b: Uint8Array): SniffedImage {
  if (b[b.length - 2] !== 0xff || b[b.length - 1] !== 0xd9) throw refuse("the JPEG does not end with its end-of-image marker: bytes after it, or a cut file, are refused");
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) throw refuse("the JPEG's segments are broken before its frame header");
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = u16(b, at + 2);
    if (length < 2 || at + 2 + length > b.length) throw refuse("a JPEG segment runs past the end of the file");
    if (SOF.has(marker)) {
      if (length < 7) throw refuse("the JPEG's frame header is too short");
      return { type: "image/jpeg", width: u16(b, at + 7), height: u16(b, at + 5) };
    }
    if (marker === 0xda || marker === 0xd9) break;
    at += 2 + length;
  }
  throw refuse("the JPEG has no frame header (no size)");
}

/** WebP: a RIFF whose size is the file's, and the size from its first chunk. */
function webp(b: Uint8Array): SniffedImage {
  if (b.length < 30) throw refuse("the WebP is too short to hold a header");
  if (u32le(b, 4) + 8 !== b.length) throw refuse("the WebP's RIFF size is not the file's: bytes after it, or a cut file, are refused");
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8X") return { type: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) throw refuse("the WebP's lossless header has no signature");
    const bits = u32le(b, 21);
    return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) throw refuse("the WebP's lossy frame has no start code");
    return { type: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  throw refuse(`the WebP's first chunk is ${JSON.stringify(chunk)}, not VP8, VP8L or VP8X`);
}

/** Markup a browser would act on, were the file ever read as a page (case folded, in the first bytes and anywhere). */
const MARKUP = /<(?:script|html|body|svg|iframe|object|embed|!doctype)[\s>/]/i;

/** The image `bytes` are, or a 400 saying why they are not one a screenshot may be. */
export function sniffImage(bytes: Uint8Array): SniffedImage {
  if (bytes.length === 0) throw refuse("the body is empty");
  let found: SniffedImage;
  if (PNG_SIGNATURE.every((v, i) => bytes[i] === v)) found = png(bytes);
  else if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) found = jpeg(bytes);
  else if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") found = webp(bytes);
  else {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 256)).trimStart().toLowerCase();
    const what = head.startsWith("<svg") || head.startsWith("<?xml") ? "an SVG or XML document" : head.startsWith("gif8") ? "a GIF" : head.startsWith("<") ? "markup" : "not a PNG, JPEG or WebP image";
    throw refuse(`${what}: a screenshot is a PNG, JPEG or WebP image`);
  }
  if (found.width === 0 || found.height === 0) throw refuse("the image declares no width or height");
  if (found.width > SCREENSHOT_SIDE_MAX_PIXELS || found.height > SCREENSHOT_SIDE_MAX_PIXELS) {
    throw refuse(`${found.width} x ${found.height} pixels; a side may have at most ${SCREENSHOT_SIDE_MAX_PIXELS.toLocaleString("en-US")}`);
  }
  if (MARKUP.test(new TextDecoder("latin1").decode(bytes))) throw refuse("the file holds HTML or SVG markup (a polyglot): refused");
  return found;
}
