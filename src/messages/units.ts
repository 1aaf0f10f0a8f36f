import type { WorkCounter } from "../common/work.ts";
import { scanTags } from "./markup.ts";
import { nativePlaceholderEnd } from "./native-placeholders.ts";
import type { MessageSyntax } from "./read-types.ts";

/**
 * A value split into what an editor shows as units (docs/messages.md "Units"): placeholders of the
 * project's syntax (`{name}`, `{count, number}` in ICU; `{{name}}` and `$t(key)` in i18next), native
 * placeholders (`%1$s`, `%d`, `%@`, `%lld`), tags (`<b>`, `</b>`, `<xliff:g id="n">`, `<br/>`), and
 * the text between them. Joined again, the units' texts are the value exactly. An argument whose
 * body holds braces (a plural, a select) stays text here: its cases are edited as forms. A tag
 * without its partner is text (markup.ts). Linear in the length of the value.
 */
export interface MessageUnit {
  kind: "text" | "placeholder" | "tag";
  text: string;
}

/**
 * The next occurrence of a string at or after a position that only moves forward: each search
 * goes on from the last one, so finding it for every `{` of a value reads the value once.
 */
class NextOf {
  private at = -2;
  constructor(
    private readonly value: string,
    private readonly what: string,
    private readonly work: WorkCounter | undefined,
  ) {}
  from(i: number): number {
    if (this.at !== -1 && this.at < i) {
      this.at = this.value.indexOf(this.what, i);
      if (this.work) this.work.steps += (this.at < 0 ? this.value.length : this.at) - i + 1;
    }
    return this.at;
  }
}

/**
 * The matching closer (plus one) of every opener, found in one pass: an i18next `$t(` ends at its
 * `)`, an ICU plural or select at its `}`.
 */
function pairEnds(value: string, opener: number, closer: number): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === opener) open.push(i);
    else if (c === closer && open.length > 0) ends.set(open.pop()!, i + 1);
  }
  return ends;
}

/** An ICU argument with cases (`{n, plural, …}`, `{g, select, …}`): its cases are edited as forms. */
const WITH_CASES = /\{\s*[\p{L}\p{N}_]+\s*,\s*(plural|select|selectordinal)\s*,/uy;

interface Cursors {
  close: NextOf;
  closeTwo: NextOf;
  open: NextOf;
}

/** The end of a brace placeholder of `syntax` starting at the `{` at `at`, or -1. */
function braceEnd(value: string, at: number, syntax: MessageSyntax, c: Cursors): number {
  if (value.charCodeAt(at + 1) === 123 /* { */) {
    // `{{name}}`: i18next's interpolation, a placeholder in the text syntax too.
    if (syntax !== "i18next" && syntax !== "text") return -1;
    const close = c.closeTwo.from(at + 2);
    if (close <= at + 2) return -1;
    const inner = c.open.from(at + 2);
    return (inner < 0 || inner > close) && c.close.from(at + 2) === close ? close + 2 : -1;
  }
  if (syntax === "i18next") return -1; // a single brace is text in i18next
  const close = c.close.from(at + 1);
  if (close < 0) return -1;
  const inner = c.open.from(at + 1);
  if (inner >= 0 && inner < close) return -1;
  // ICU and Flutter: `{name}` or a simple argument (`{n, number}`, `{d, date, short}`); text: a name only.
  const body = value.slice(at + 1, close);
  const pattern = syntax === "text" ? /^\s*[\p{L}\p{N}_.$-]+\s*$/u : /^\s*[\p{L}\p{N}_]+\s*(,[^{}]*)?$/u;
  return pattern.test(body) ? close + 1 : -1;
}

/** The end of ICU quoted text starting at the apostrophe at `at` (`'{text}'`), or -1 when it quotes nothing. */
function quotedEnd(value: string, at: number): number {
  const next = value[at + 1];
  if (next !== "{" && next !== "}") return -1;
  for (let i = at + 1; i < value.length; i++) {
    if (value[i] !== "'") continue;
    if (value[i + 1] === "'") i++;
    else return i + 1;
  }
  return value.length;
}

export function messageUnits(value: string, syntax: MessageSyntax, work?: WorkCounter): MessageUnit[] {
  const cursors: Cursors = { close: new NextOf(value, "}", work), closeTwo: new NextOf(value, "}}", work), open: new NextOf(value, "{", work) };
  let parens: Map<number, number> | undefined;
  let braces: Map<number, number> | undefined;
  const tags = new Map<number, number>();
  for (const t of scanTags(value, work)) if (t.pair >= 0) tags.set(t.start, t.end);
  const units: MessageUnit[] = [];
  let text = 0;
  const unit = (kind: MessageUnit["kind"], start: number, end: number) => {
    if (start > text) units.push({ kind: "text", text: value.slice(text, start) });
    units.push({ kind, text: value.slice(start, end) });
    text = end;
  };
  for (let i = 0; i < value.length; ) {
    if (work) work.steps++;
    const c = value.charCodeAt(i);
    let end = -1;
    let kind: MessageUnit["kind"] = "placeholder";
    if (c === 60 /* < */) {
      end = tags.get(i) ?? -1;
      kind = "tag";
    } else if (c === 37 /* % */) {
      end = nativePlaceholderEnd(value, i);
      if (end < 0 && value.charCodeAt(i + 1) === 37) {
        i += 2;
        continue;
      }
    } else if (c === 123 /* { */) {
      WITH_CASES.lastIndex = i;
      if (syntax !== "i18next" && syntax !== "text" && WITH_CASES.test(value)) {
        // The whole argument is text here; its cases are split into forms first (message-forms).
        i = (braces ??= pairEnds(value, 123, 125)).get(i) ?? value.length;
        continue;
      }
      end = braceEnd(value, i, syntax, cursors);
    } else if (c === 36 /* $ */ && syntax === "i18next" && value.startsWith("$t(", i)) end = (parens ??= pairEnds(value, 40, 41)).get(i + 2) ?? -1;
    else if (c === 39 /* ' */ && syntax === "icu") {
      const quoted = quotedEnd(value, i);
      if (quoted > 0) {
        i = quoted;
        continue;
      }
    }
    if (end > i) {
      unit(kind, i, end);
      i = end;
    } else i++;
  }
  if (text < value.length) units.push({ kind: "text", text: value.slice(text) });
  return units;
}
