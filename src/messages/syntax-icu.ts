import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { WorkCounter } from "../common/work.ts";
import type { Syntax } from "./syntax.ts";
import { NOTHING, type ArgumentKind, type MessageArgument, type PluralUse, type ReadMessage } from "./read-types.ts";

/**
 * The `icu` syntax (docs/messages.md "Syntaxes"): ICU MessageFormat read with the parser behind
 * FormatJS/react-intl, with ICU's apostrophe quoting, and a linear scan for the common shapes.
 */

/**
 * Braces nested deeper than this are refused before parsing: the parser recurses per level (a
 * 100,000-character value could nest 6,000 levels and overflow a browser's stack), and no real
 * message comes near it.
 */
export const MAX_NESTING = 50;


/** The parser's options: ICU as specified, tags as text (gen-l10n and i18next have none). */
const PARSE_OPTIONS = { ignoreTag: true, requiresOtherClause: true, shouldParseSkeletons: false, captureLocation: true } as const;

/** The position where brace nesting first passes MAX_NESTING, or -1 (one linear pass). */
function tooDeepAt(value: string, work?: WorkCounter): number {
  let depth = 0;
  for (let i = value.indexOf("{"); i >= 0 && i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 123 /* { */) {
      if (++depth > MAX_NESTING) {
        if (work) work.steps += i + 1;
        return i;
      }
    } else if (c === 125 /* } */ && depth > 0) depth--;
  }
  if (work) work.steps += value.length;
  return -1;
}

/** Moves a specific kind over `plain`: `{count}` inside `{count, plural, ...}` is still the plural. */
function note(byName: Map<string, MessageArgument>, name: string, kind: ArgumentKind, work: WorkCounter | undefined): void {
  if (work) work.steps++;
  const known = byName.get(name);
  if (!known) byName.set(name, { name, kind });
  else if (known.kind === "plain" && kind !== "plain") known.kind = kind;
}

const KIND_OF_TYPE: Partial<Record<TYPE, ArgumentKind>> = {
  [TYPE.argument]: "plain",
  [TYPE.number]: "number",
  [TYPE.date]: "date",
  [TYPE.time]: "time",
};

function walk(elements: MessageFormatElement[], byName: Map<string, MessageArgument>, plurals: PluralUse[], work: WorkCounter | undefined): void {
  if (work) work.steps += elements.length;
  for (const el of elements) {
    if (el.type === TYPE.plural) {
      const ordinal = el.pluralType === "ordinal";
      note(byName, el.value, ordinal ? "selectordinal" : "plural", work);
      const use: PluralUse = { argument: el.value, ordinal, offset: el.offset, categories: [], exact: [] };
      for (const selector of Object.keys(el.options)) {
        if (selector.startsWith("=")) use.exact.push(Number(selector.slice(1)));
        else use.categories.push(selector);
      }
      plurals.push(use);
      for (const option of Object.values(el.options)) walk(option.value, byName, plurals, work);
    } else if (el.type === TYPE.select) {
      note(byName, el.value, "select", work);
      for (const option of Object.values(el.options)) walk(option.value, byName, plurals, work);
    } else if (el.type === TYPE.tag) {
      walk(el.children, byName, plurals, work); // not produced with ignoreTag; kept for safety
    } else if (el.type !== TYPE.pound && el.type !== TYPE.literal) {
      note(byName, el.value, KIND_OF_TYPE[el.type]!, work);
    }
  }
}

const OPEN = 123; // {
const CLOSE = 125; // }
const COMMA = 44;
const SPACE = 32;
const EQUALS = 61;

const isNameChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; // [A-Za-z0-9_]
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;

function nameEnd(value: string, at: number): number {
  while (at < value.length && isNameChar(value.charCodeAt(at))) at++;
  return at;
}

function spacesEnd(value: string, at: number): number {
  while (value.charCodeAt(at) === SPACE) at++;
  return at;
}

/**
 * The reading of the messages most apps are made of, without the parser: text, `{name}`, and
 * `{name, plural|selectordinal|select, case {text} ... other {text}}` whose cases hold only text,
 * `#` and `{name}`, names of ASCII letters, digits and `_`, and no apostrophe anywhere (so nothing
 * is quoted; `#`, `<` and a `}` outside an argument are text, as the parser reads them). For
 * anything else, and for anything the parser would refuse, null: the parser decides. On the
 * messages it accepts its answer is the parser's (test/messages/read.test.ts compares them on
 * generated messages); it exists because a publish reads every value, and the parser costs
 * several microseconds a message where this costs a fraction of one.
 */
export function readCommonShapes(value: string, work?: WorkCounter): ReadMessage | null {
  if (value.indexOf("'") >= 0) return null;
  // Most messages have a few arguments, which a list searched in place holds for less than a map;
  // past a few, a map keeps a pasted blob of 17,000 placeholders linear.
  const args: MessageArgument[] = [];
  let index: Map<string, MessageArgument> | null = null;
  const note = (name: string, kind: ArgumentKind) => {
    let known: MessageArgument | undefined;
    if (work) work.steps += index ? 1 : args.length;
    if (index) known = index.get(name);
    else for (const a of args) if (a.name === name) known = a;
    if (known) {
      if (known.kind === "plain") known.kind = kind;
      return;
    }
    const arg = { name, kind };
    args.push(arg);
    if (index) index.set(name, arg);
    else if (args.length > 8) index = new Map(args.map((a) => [a.name, a]));
  };
  const plurals: PluralUse[] = [];
  let at = 0;
  for (let open = value.indexOf("{"); open >= 0; open = value.indexOf("{", at)) {
    let j = nameEnd(value, open + 1);
    if (j === open + 1) return null;
    const name = value.slice(open + 1, j);
    if (value.charCodeAt(j) === CLOSE) {
      note(name, "plain");
      if (work) work.steps += j + 1 - at; // the text before the argument, and the argument
      at = j + 1;
      continue;
    }
    if (value.charCodeAt(j) !== COMMA) return null;
    j = spacesEnd(value, j + 1);
    const typeStart = j;
    while (isLetter(value.charCodeAt(j))) j++;
    const type = value.slice(typeStart, j);
    if (type !== "plural" && type !== "selectordinal" && type !== "select") return null;
    j = spacesEnd(value, j);
    if (value.charCodeAt(j) !== COMMA) return null;
    note(name, type);
    const use: PluralUse | null = type === "select" ? null : { argument: name, ordinal: type === "selectordinal", offset: 0, categories: [], exact: [] };
    // A set: a pasted select of 10,000 cases must not compare each case with every one before it.
    const selectors = new Set<string>();
    for (j = spacesEnd(value, j + 1); ; j = spacesEnd(value, j)) {
      if (value.charCodeAt(j) === CLOSE) break;
      const selectorStart = j;
      if (value.charCodeAt(j) === EQUALS && use) {
        j++;
        while (isDigit(value.charCodeAt(j))) j++;
        if (j === selectorStart + 1) return null;
      } else {
        if (!isLetter(value.charCodeAt(j))) return null;
        j = nameEnd(value, j);
      }
      const selector = value.slice(selectorStart, j);
      if (work) work.steps++;
      if (selectors.has(selector) || (use && selector === "offset")) return null;
      selectors.add(selector);
      j = spacesEnd(value, j);
      if (value.charCodeAt(j) !== OPEN) return null;
      // The case's text: anything but braces, and {name} arguments.
      for (j++; ; ) {
        const c = value.charCodeAt(j);
        if (c === CLOSE) break;
        if (Number.isNaN(c)) return null;
        if (c === OPEN) {
          const end = nameEnd(value, j + 1);
          if (end === j + 1 || value.charCodeAt(end) !== CLOSE) return null;
          note(value.slice(j + 1, end), "plain");
          j = end + 1;
        } else j++;
      }
      j++;
      if (use) {
        if (selector.charCodeAt(0) === EQUALS) use.exact.push(Number(selector.slice(1)));
        else use.categories.push(selector);
      }
    }
    if (!selectors.has("other")) return null;
    if (use) plurals.push(use);
    if (work) work.steps += j + 1 - at;
    at = j + 1;
  }
  if (work) work.steps += value.length - at;
  return args.length === 0 ? NOTHING : { arguments: args, plurals, fault: null };
}

/**
 * Reads an ICU message with the parser alone (no shortcut); readMessage's answers equal its answers.
 * A `work` counter is charged the value's length for the parser, which reads it once.
 */
export function parseIcu(value: string, work?: WorkCounter): ReadMessage {
  const deep = tooDeepAt(value, work);
  if (deep >= 0) return { arguments: [], plurals: [], fault: { kind: "TOO_DEEP", start: deep, end: deep + 1 } };
  let elements: MessageFormatElement[];
  if (work) work.steps += value.length;
  try {
    elements = parse(value, PARSE_OPTIONS);
  } catch (err) {
    const location = (err as { location?: { start: { offset: number }; end: { offset: number } } }).location;
    // A RangeError (stack) is out of reach below MAX_NESTING; report it as a fault all the same.
    const kind = err instanceof SyntaxError ? err.message : "TOO_DEEP";
    return { arguments: [], plurals: [], fault: { kind, start: location?.start.offset ?? 0, end: location?.end.offset ?? 0 } };
  }
  const byName = new Map<string, MessageArgument>();
  const plurals: PluralUse[] = [];
  walk(elements, byName, plurals, work);
  return { arguments: [...byName.values()], plurals, fault: null };
}

/** Reads an ICU message: the linear scan for the common shapes, else the parser. */
export function readIcu(value: string, work?: WorkCounter): ReadMessage {
  // No brace, no argument and nothing the parser could refuse (a lone `'` or `#` is text).
  if (value.indexOf("{") < 0 && value.indexOf("}") < 0) return NOTHING;
  return readCommonShapes(value, work) ?? parseIcu(value, work);
}

export const icuSyntax: Syntax = {
  name: "icu",
  label: "ICU MessageFormat",
  example: "{name}, {count, plural, one {…} other {…}}",
  read: readIcu,
  unknownSeverity: "error",
  pluralsInMessage: true,
  show: (name) => `\`{${name}}\``,
  // A single brace that is not the start of `{{`.
  looksLike: (value) => /(^|[^{])\{[^{]/.test(value),
};
