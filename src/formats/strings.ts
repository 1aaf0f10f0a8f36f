import type { Entry, FileFormat, WriteInput } from "./format.ts";
import { pluralParts } from "./plural-forms.ts";
import { invalid } from "./read.ts";

/**
 * Apple `.strings` (docs/formats.md "Apple"): `"key" = "value";` pairs with `/* comments *\/`, an
 * import and export format. No maintained JavaScript library reads the format (the old-style
 * property list of a `.strings` file is small and fully specified), so this is a mapper of our own.
 *
 * Read: UTF-8, or UTF-16 with a byte order mark (the client and the dashboard decode it before;
 * a file that still holds NUL characters was UTF-16 without a mark and is refused); a comment just
 * before a pair is the key's context; escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\uXXXX` and
 * `\UXXXX` are undone; a key or value may be unquoted when it is letters, digits and `_.-:/$`.
 *
 * Written in UTF-8 (the client writes UTF-16 over a UTF-16 file): every key that is no plural
 * (plurals go to `.stringsdict`, docs/formats.md "Apple"), its context as a comment above.
 */

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t", r: "\r", "0": "\0", "'": "'" };

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  line(at = this.i): number {
    let line = 1;
    for (let j = this.text.indexOf("\n"); j !== -1 && j < at; j = this.text.indexOf("\n", j + 1)) line++;
    return line;
  }

  column(at = this.i): number {
    return at - this.text.lastIndexOf("\n", at - 1);
  }

  fail(why: string, at = this.i): never {
    throw invalid(why, this.line(at), this.column(at));
  }

  /** Skips white space and comments; returns the text of the last comment skipped. */
  skip(): string | undefined {
    let comment: string | undefined;
    for (;;) {
      while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
      if (this.text.startsWith("/*", this.i)) {
        const end = this.text.indexOf("*/", this.i + 2);
        if (end < 0) this.fail("a comment /* is never closed");
        comment = this.text.slice(this.i + 2, end).trim();
        this.i = end + 2;
      } else if (this.text.startsWith("//", this.i)) {
        const end = this.text.indexOf("\n", this.i);
        comment = this.text.slice(this.i + 2, end < 0 ? undefined : end).trim();
        this.i = end < 0 ? this.text.length : end + 1;
      } else return comment;
    }
  }

  string(what: string): string {
    const start = this.i;
    if (this.text[this.i] !== '"') {
      const m = /[A-Za-z0-9_.\-:/$]+/y;
      m.lastIndex = this.i;
      const found = m.exec(this.text);
      if (!found) this.fail(`expected the ${what} in double quotes`);
      this.i = m.lastIndex;
      return found[0];
    }
    let out = "";
    for (this.i++; ; this.i++) {
      if (this.i >= this.text.length) this.fail(`the ${what} that starts here is never closed with "`, start);
      const c = this.text[this.i]!;
      if (c === '"') break;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const n = this.text[++this.i] ?? "";
      if (n === "u" || n === "U") {
        const hex = this.text.slice(this.i + 1, this.i + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(`\\${n} must be followed by four hexadecimal digits`, this.i - 1);
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 4;
      } else if (n in ESCAPES) out += ESCAPES[n];
      else this.fail(`unknown escape \\${n}`, this.i - 1);
    }
    this.i++;
    return out;
  }

  expect(c: string, after: string): void {
    if (this.text[this.i] !== c) this.fail(`expected "${c}" after the ${after}`);
    this.i++;
  }
}

/** A NUL character: the file was UTF-16 without a byte order mark and was read as UTF-8. */
export function refuseUnmarkedUtf16(content: string): void {
  const at = content.indexOf("\0");
  if (at < 0) return;
  throw invalid("the file holds NUL characters: it looks like UTF-16 without a byte order mark (BOM); save it as UTF-8, or as UTF-16 with a BOM", 1, 1);
}

async function read(content: string) {
  refuseUnmarkedUtf16(content);
  const s = new Scanner(content);
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (;;) {
    const comment = s.skip();
    if (s.i >= content.length) break;
    const at = s.i;
    const key = s.string("key");
    s.skip();
    s.expect("=", `key "${key}"`);
    s.skip();
    const value = s.string("value");
    s.skip();
    s.expect(";", `value of "${key}"`);
    if (seen.has(key)) s.fail(`the key "${key}" appears twice`, at);
    seen.add(key);
    entries.push(comment ? { key, value, description: comment } : { key, value });
  }
  return { languages: [{ entries }] };
}

/** A string in double quotes as Xcode writes it. */
export function quoteStrings(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r").replace(/\0/g, "\\0")}"`;
}

function write({ keys, languages, work }: WriteInput): string {
  const lang = languages[0]!;
  const blocks: string[] = [];
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined || pluralParts(value, "%d")) continue;
    if (work) work.steps++;
    const context = keys.contextOf[i];
    const comment = context ? `/* ${context.replace(/\*\//g, "* /")} */\n` : "";
    blocks.push(`${comment}${quoteStrings(keys.keys[i]!)} = ${quoteStrings(value)};\n`);
  }
  return blocks.join("\n");
}

export const strings = {
  name: "strings",
  label: "Apple .strings",
  extensions: ["strings"],
  contentType: "text/plain; charset=utf-8",
  bundle: false,
  read,
  write,
} as const satisfies FileFormat<"strings">;
