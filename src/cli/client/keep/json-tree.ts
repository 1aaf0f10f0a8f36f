/**
 * A JSON document as `pull` rewrites a team's file (docs/automation.md "Pull keeps the
 * repository's shape"): objects as ordered lists of entries, never JS objects, so no key is
 * reordered (JS puts integer-like keys first) and no key reaches a prototype (`__proto__`); every
 * value that is not a non-empty object kept as the exact text the file has it in, so a string the
 * pull does not change keeps its escapes (`\u00e9`, Xcode's `\/`).
 */
export interface JsonObject {
  entries: JsonEntry[];
}

export interface JsonEntry {
  key: string;
  /** The key as the file writes it, quotes included. */
  keyText: string;
  value: JsonObject | JsonText;
}

/** A value as text: a string, number, list or empty object, exactly as written. */
export interface JsonText {
  text: string;
}

export const isObject = (v: JsonObject | JsonText): v is JsonObject => "entries" in v;

/** How a file is laid out: what `pull` writes its changes in. */
export interface JsonStyle {
  /** One level of indentation (two spaces, four, a tab). */
  indent: string;
  /** Between a key and its value: `": "`, or Xcode's `" : "`. */
  colon: string;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
}

export function styleOf(text: string): JsonStyle {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  const colon = /"(?:[^"\\\n]|\\.)*"([ \t]*:[ \t]*)/.exec(text)?.[1] ?? ": ";
  return { indent, colon, eol, finalNewline: /\n$/.test(text) };
}

/**
 * Reads a document whose top is an object, or undefined. The caller has read it with the format's
 * parser already; this reader only finds where each value starts and ends (a scanner of our own:
 * the Node client is one bundled file, and it needs no parser beside JSON.parse).
 */
export function readTree(text: string): JsonObject | undefined {
  const scan = { text, at: skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0) };
  try {
    if (text[scan.at] !== "{") return undefined;
    const top = readValue(scan);
    if (skipSpace(text, scan.at) !== text.length) return undefined;
    return isObject(top) ? top : { entries: [] }; // `{}`: an object with nothing in it yet
  } catch {
    return undefined;
  }
}

interface TreeScan {
  text: string;
  at: number;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && (text[at] === " " || text[at] === "\n" || text[at] === "\r" || text[at] === "\t")) at++;
  return at;
}

/** The end of the string that starts at `at` (its closing quote included). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new Error("unterminated string");
}

/** The end of the list that starts at `at`, its strings skipped whole. */
function listEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i) - 1;
    else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return i + 1;
  }
  throw new Error("unterminated list");
}

function readValue(s: TreeScan): JsonObject | JsonText {
  const start = s.at;
  const c = s.text[start];
  if (c === "{") {
    const entries: JsonEntry[] = [];
    s.at = skipSpace(s.text, start + 1);
    while (s.text[s.at] !== "}") {
      if (s.text[s.at] !== '"') throw new Error("expected a key");
      const keyEnd = stringEnd(s.text, s.at);
      const keyText = s.text.slice(s.at, keyEnd);
      s.at = skipSpace(s.text, keyEnd);
      if (s.text[s.at] !== ":") throw new Error('expected ":"');
      s.at = skipSpace(s.text, s.at + 1);
      entries.push({ key: JSON.parse(keyText) as string, keyText, value: readValue(s) });
      s.at = skipSpace(s.text, s.at);
      if (s.text[s.at] === ",") s.at = skipSpace(s.text, s.at + 1);
      else if (s.text[s.at] !== "}") throw new Error('expected "," or "}"');
    }
    s.at++;
    return entries.length > 0 ? { entries } : { text: s.text.slice(start, s.at) };
  }
  if (c === '"') s.at = stringEnd(s.text, start);
  else if (c === "[") s.at = listEnd(s.text, start);
  else {
    const literal = /[^\s,\]}]+/y;
    literal.lastIndex = start;
    if (!literal.exec(s.text)) throw new Error("expected a value");
    s.at = literal.lastIndex;
  }
  return { text: s.text.slice(start, s.at) };
}

/** Writes a tree in `style`: one entry a line, each level one indent deeper. */
export function writeTree(tree: JsonObject, style: JsonStyle): string {
  const out: string[] = [];
  writeObject(tree, style, "", out);
  if (style.finalNewline) out.push(style.eol);
  return out.join("");
}

function writeObject(tree: JsonObject, style: JsonStyle, at: string, out: string[]): void {
  if (tree.entries.length === 0) {
    out.push("{}");
    return;
  }
  const inner = at + style.indent;
  out.push("{", style.eol);
  tree.entries.forEach((entry, i) => {
    out.push(inner, entry.keyText, style.colon);
    if (isObject(entry.value)) writeObject(entry.value, style, inner, out);
    else out.push(entry.value.text);
    out.push(i < tree.entries.length - 1 ? `,${style.eol}` : style.eol);
  });
  out.push(at, "}");
}
