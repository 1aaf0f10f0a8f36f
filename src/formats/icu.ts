/**
 * The argument names of an ICU message (`{count}`, `{n, plural, one {...} other {...}}`, nested
 * arguments inside plural/select branches), for the ARB `placeholders` metadata (docs/product.md §3).
 * Apostrophes are not treated as escapes, as Flutter gen-l10n does by default, so the list is
 * never missing a name gen-l10n would look for. Malformed text is read as plain text, never an error.
 */
const BRANCHING_TYPES = new Set(["plural", "select", "selectordinal"]);
const ARGUMENT_NAME = /^[^\s{}#,'"]+$/u;
const WHITE_SPACE = /\s/;

class Scanner {
  i = 0;
  readonly names: string[] = [];
  constructor(readonly s: string) {}

  eatSpace(): void {
    while (this.i < this.s.length && WHITE_SPACE.test(this.s[this.i]!)) this.i++;
  }

  readUntil(stops: string): string {
    const start = this.i;
    while (this.i < this.s.length && !stops.includes(this.s[this.i]!)) this.i++;
    return this.s.slice(start, this.i);
  }

  add(name: string): void {
    if (ARGUMENT_NAME.test(name) && !this.names.includes(name)) this.names.push(name);
  }

  /** Reads message text up to an unmatched `}` (left unconsumed) or the end. */
  message(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === "}") return;
      this.i++;
      if (c === "{") this.argument();
    }
  }

  /** After `{`: `name}`, `name, type}`, `name, type, style}` or a branching type with sub-messages. */
  argument(): void {
    const resume = this.i;
    this.eatSpace();
    const name = this.readUntil(",{}").trim();
    const c = this.s[this.i];
    if (c === "}") {
      this.i++;
      return this.add(name);
    }
    if (c !== ",") {
      this.i = resume; // not an argument: read on as text
      return;
    }
    this.i++;
    const type = this.readUntil(",{}").trim();
    this.add(name);
    if (this.s[this.i] === "}") {
      this.i++;
      return;
    }
    if (this.s[this.i] === ",") this.i++;
    if (BRANCHING_TYPES.has(type)) this.branches();
    else this.eatBalanced();
  }

  /** `selector {message} selector {message} ... }` */
  branches(): void {
    while (this.i < this.s.length) {
      this.eatSpace();
      if (this.s[this.i] === "}") {
        this.i++;
        return;
      }
      this.readUntil("{}");
      if (this.s[this.i] !== "{") continue;
      this.i++;
      this.message();
      if (this.s[this.i] === "}") this.i++;
    }
  }

  /** A style argument such as `number, ::currency/EUR`: skip to the matching `}`. */
  eatBalanced(): void {
    let depth = 1;
    while (this.i < this.s.length && depth > 0) {
      const c = this.s[this.i++];
      if (c === "{") depth++;
      else if (c === "}") depth--;
    }
  }
}

export function placeholderNames(message: string): string[] {
  if (!message.includes("{")) return [];
  const scanner = new Scanner(message);
  while (scanner.i < message.length) {
    scanner.message();
    scanner.i++; // a stray `}` at the top level is text
  }
  return scanner.names;
}
