import type { BundleKeys, BundleLanguage, KeyTexts, LanguageTexts, TextSink } from "./format.ts";

export type { TextSink };

/**
 * The quoted forms `write` shares (docs/formats.md "Speed"): each key quoted once per key set, each
 * value once per language, whatever the number of formats written from them. Publishing writes
 * every language of a release from one key set, so the key forms are kept with it.
 */
const textsByKeySet = new WeakMap<BundleKeys, KeyTexts>();

export function keyTexts(keySet: BundleKeys): KeyTexts {
  let texts = textsByKeySet.get(keySet);
  if (!texts) {
    const json = new Array<string>(keySet.keys.length);
    const contextOf = new Array<string | null>(keySet.keys.length);
    const translatableOf = new Array<boolean>(keySet.keys.length);
    for (let i = 0; i < keySet.keys.length; i++) {
      const key = keySet.keys[i]!;
      json[i] = JSON.stringify(key);
      contextOf[i] = keySet.contexts.get(key) ?? null;
      translatableOf[i] = !keySet.notTranslatable?.has(key);
    }
    const owned = new Map<string, unknown>();
    texts = {
      ...keySet,
      json,
      contextOf,
      translatableOf,
      own<T>(format: string, build: () => T): T {
        if (!owned.has(format)) owned.set(format, build());
        return owned.get(format) as T;
      },
    };
    textsByKeySet.set(keySet, texts);
  }
  return texts;
}

export function languageTexts(lang: BundleLanguage): LanguageTexts {
  return lang;
}

/** What JSON.stringify escapes in a string: `"`, `\\`, control characters, and surrogates (only lone ones, but a pair is rare enough to take the slow way). */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether a string's JSON form is anything but the string between quotes. */
export function needsJsonEscapes(s: string): boolean {
  return JSON_ESCAPED.test(s);
}

/**
 * Adds a string's JSON form: most values need no escape, and are added between quotes as they
 * are, with no quoted copy made of each value of each language (docs/formats.md "Speed").
 */
export function addJsonString(out: TextSink, s: string): void {
  if (JSON_ESCAPED.test(s)) out.add(JSON.stringify(s));
  else {
    out.add('"');
    out.add(s);
    out.add('"');
  }
}

/** Collects the pieces into one string, made by a single join. */
export class TextPieces implements TextSink {
  private readonly pieces: string[] = [];
  add(piece: string): void {
    this.pieces.push(piece);
  }
  text(): string {
    return this.pieces.join("");
  }
}

/**
 * Encodes the pieces to UTF-8 into a buffer kept from one file to the next. With a `drain` (set by
 * `reset`), the bytes are handed to it whenever the buffer is full and at `end`, so the buffer stays
 * small and a publish writes its files as they are made; without one, the buffer grows to hold the
 * whole file (`bytes`). Each piece is encoded as it comes: gathering pieces into larger strings
 * first makes memory that is handed back to the system when freed and must be faulted in again
 * (docs/formats.md "Speed").
 */
export class Utf8Bytes implements TextSink {
  private buffer: Buffer;
  private length = 0;
  private drain: ((bytes: Uint8Array) => void) | undefined;

  constructor(initialBytes = 1 << 16) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  /** Starts a new file: its bytes go to `drain` as they come, or are kept for `bytes`. */
  reset(drain?: (bytes: Uint8Array) => void): void {
    this.length = 0;
    this.drain = drain;
  }

  add(piece: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    const most = piece.length * 3;
    if (this.length + most > this.buffer.byteLength) {
      if (this.drain) this.end();
      if (this.length + most > this.buffer.byteLength) this.grow(this.length + most);
    }
    this.length += this.buffer.write(piece, this.length, "utf8");
  }

  /** Hands what is gathered to the drain, if there is one. */
  end(): void {
    if (this.drain && this.length > 0) this.drain(this.buffer.subarray(0, this.length));
    if (this.drain) this.length = 0;
  }

  /** The bytes written since the last reset (without a drain); valid until the next `add` or `reset`. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private grow(atLeast: number): void {
    const next = Buffer.allocUnsafe(Math.max(atLeast, this.buffer.byteLength * 2));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
}

/** A writer's file as one string. */
export function textOf(writeTo: (out: TextSink) => void): string {
  const out = new TextPieces();
  writeTo(out);
  return out.text();
}
