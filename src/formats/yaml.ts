import { CST, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, parseDocument, type Document, type Node as YamlNode } from "yaml";
import type { FileFormat, FileLanguage, WriteInput } from "./format.ts";
import { ContentError, describe, FlatEntries, IMPORT_LIMITS, invalid, tooDeep } from "./read.ts";

/**
 * YAML (docs/formats.md "YAML"; docs/interface.md §2.6, docs/product.md §3): a bundle format.
 *
 * Written as a flat mapping that must read back to exactly the same strings in YAML 1.1 and 1.2
 * parsers. A scalar is written plain only when it is unmistakably a string in both versions: it
 * starts with an ASCII letter, holds only letters, spaces and `_ . , -` (no digits: some 1.1
 * parsers read `e9` as a number), does not end in a space, and is not one of the words YAML 1.1
 * reads as a boolean or null (`y`, `no`, `On`, `NULL`, ...). Everything else is double-quoted with
 * escapes both versions share (`\"`, `\\`, `\uXXXX`).
 *
 * Read as a mapping of strings with the failsafe schema; nested mappings are flattened with ".".
 */
const PLAIN_SAFE = /^[A-Za-z](?:[A-Za-z_.,\- ]*[A-Za-z_.,\-])?$/;
const YAML11_WORDS = new Set(["y", "n", "yes", "no", "true", "false", "on", "off", "null"]);

function isPlainSafe(s: string): boolean {
  return PLAIN_SAFE.test(s) && !YAML11_WORDS.has(s.toLowerCase());
}

/**
 * Double-quoted form: JSON's string syntax is valid YAML in both versions (`\"`, `\\`, `\n`, `\b`,
 * `\uXXXX`, lone surrogates as `\uD800`), and JSON.stringify is native and fast. On top of what
 * JSON escapes, YAML 1.1 must not see raw C1 controls or U+0085, U+2028, U+2029 (it folds them as
 * line breaks), the byte order mark, or the non-characters U+FFFE and U+FFFF.
 */
const YAML_EXTRA = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const YAML_EXTRA_ESCAPES = new RegExp(YAML_EXTRA.source, "g");

/** The double-quoted YAML form of a string whose JSON form (JSON.stringify) is already known. */
function quoteYamlFromJson(json: string): string {
  return YAML_EXTRA.test(json)
    ? json.replace(YAML_EXTRA_ESCAPES, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`)
    : json;
}

/** A key or value as written: plain when safe, else double-quoted from its JSON form. */
function yamlScalar(s: string, json: string): string {
  return isPlainSafe(s) ? s : quoteYamlFromJson(json);
}

function write({ keys, languages }: WriteInput): string {
  const lang = languages[0]!;
  // The keys' YAML forms, made once per key set for every language (docs/formats.md "Speed").
  const keyYaml = keys.own("yaml", () => keys.keys.map((key, i) => yamlScalar(key, keys.json[i]!)));
  const lines: string[] = [];
  for (let i = 0; i < keys.keys.length; i++) {
    const valueJson = lang.json[i];
    if (valueJson !== undefined) lines.push(`${keyYaml[i]!}: ${yamlScalar(lang.values[i]!, valueJson)}`);
  }
  return lines.length === 0 ? "{}\n" : lines.join("\n") + "\n";
}

/** Walks a YAML mapping, resolving aliases within the limits. */
class YamlWalker {
  private aliases = 0;
  readonly out = new FlatEntries();

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  private at(node: YamlNode | null | undefined, why: string): ContentError {
    const start = node?.range?.[0];
    if (start === undefined) return invalid(why);
    const { line, col } = this.lines.linePos(start);
    return invalid(why, line, col);
  }

  private resolve(node: unknown): unknown {
    if (!isAlias(node)) return node;
    if (++this.aliases > IMPORT_LIMITS.yamlAliases) throw this.at(node, `more than ${IMPORT_LIMITS.yamlAliases} aliases (the limit of one file)`);
    return node.resolve(this.doc) ?? null;
  }

  walk(map: unknown, prefix: string, depth: number): void {
    if (!isMap(map)) return;
    const seen = new Set<string>();
    for (const pair of map.items) {
      const keyNode = this.resolve(pair.key);
      if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
        throw this.at(pair.key as YamlNode, `every key must be text${prefix ? ` (under "${prefix}")` : ""}`);
      }
      const key = prefix ? `${prefix}.${String(keyNode.value)}` : String(keyNode.value);
      if (seen.has(key)) throw this.at(pair.key as YamlNode, `key "${key}" appears twice`);
      seen.add(key);
      const value = this.resolve(pair.value);
      if (isScalar(value) && typeof value.value === "string") this.out.add(key, value.value);
      else if (isMap(value)) {
        if (depth >= IMPORT_LIMITS.depth) throw this.at(value, tooDeep(key).reason);
        this.walk(value, key, depth + 1);
      } else {
        const what = isSeq(value) ? "a list" : isScalar(value) ? describe(value.value) : describe(value);
        throw this.at((value as YamlNode | null) ?? (pair.key as YamlNode), `the value of "${key}" must be a string, not ${what}`);
      }
    }
  }
}

/**
 * Where a quoted scalar that is never closed opens. The parser reports the end of the file (a
 * quoted scalar may span lines, so only the end proves it open), which says nothing in a long file.
 */
function unclosedQuoteAt(content: string): number | undefined {
  let at: number | undefined;
  for (const token of new Parser().parse(content)) {
    if (token.type !== "document") continue;
    CST.visit(token, (item) => {
      for (const t of [item.key, item.value]) {
        if (!t || (t.type !== "double-quoted-scalar" && t.type !== "single-quoted-scalar")) continue;
        const quote = t.type === "double-quoted-scalar" ? '"' : "'";
        const closed = t.source.length > 1 && t.source.endsWith(quote) && (quote === "'" || !/(^|[^\\])(\\\\)*\\"$/.test(t.source));
        if (!closed) at ??= t.offset;
      }
    });
  }
  return at;
}

function read(content: string): FileLanguage {
  // The failsafe schema reads every scalar as the text written, so `yes`, `1.0` or `null` stay
  // those strings in YAML 1.1 and 1.2 alike, instead of turning into booleans, numbers or nothing.
  // Duplicate keys are found by the walk (the library's own check compares every pair with every
  // other: 15 s for 50,000 keys).
  const lines = new LineCounter();
  const doc = parseDocument(content, { schema: "failsafe", uniqueKeys: false, prettyErrors: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    let start = error.linePos?.[0];
    const opened = error.code === "MISSING_CHAR" && /quote/.test(error.message) ? unclosedQuoteAt(content) : undefined;
    if (opened !== undefined) start = lines.linePos(opened);
    throw invalid(`not valid YAML: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`, start?.line, start?.col);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) return { entries: [] };
  if (!isMap(root)) throw invalid(`YAML must hold a mapping at the top, not ${isSeq(root) ? "a list" : "text"}`, 1, 1);
  const walker = new YamlWalker(doc, lines);
  walker.walk(root, "", 1);
  return { entries: walker.out.list() };
}

export const yaml = {
  name: "yaml",
  label: "YAML (flat key → string)",
  extensions: ["yaml", "yml"],
  // RFC 9512 registers application/yaml (docs/product.md §3).
  contentType: "application/yaml; charset=utf-8",
  bundle: true,
  read: (content) => ({ languages: [read(content)] }),
  write,
} as const satisfies FileFormat<"yaml">;
