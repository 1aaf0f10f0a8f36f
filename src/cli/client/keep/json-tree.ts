import type { Node } from "jsonc-parser";

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

/** Reads a document whose top is an object (the caller has read it with the format's parser already). */
export async function readTree(text: string): Promise<JsonObject | undefined> {
  const { parseTree } = await import("jsonc-parser");
  const root = parseTree(text, [], { disallowComments: true });
  return root?.type === "object" ? objectOf(root, text) : undefined;
}

function objectOf(node: Node, text: string): JsonObject {
  const entries: JsonEntry[] = [];
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    entries.push({ key: String(keyNode.value), keyText: slice(text, keyNode), value: valueNode.type === "object" && valueNode.children?.length ? objectOf(valueNode, text) : { text: slice(text, valueNode) } });
  }
  return { entries };
}

const slice = (text: string, node: Node) => text.slice(node.offset, node.offset + node.length);

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

/** A string value as JSON writes it. */
export const jsonText = (value: string): JsonText => ({ text: JSON.stringify(value) });
