import { CST, isAlias, isMap, isScalar, isSeq, Lexer, LineCounter, Parser, parseDocument, type Document, type Node as YamlNode } from "yaml";
import type { FileLanguage } from "./format.ts";
import { ContentError, describe, FlatEntries, IMPORT_LIMITS, invalid, tooDeep } from "./read.ts";

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

/** The lexer's own marks between tokens (document start, scalar, flow end): not text of the file. */
const LEXER_MARKS = new Set(["\x02", "\x18", "\x1f"]);

/**
 * Refuses a file with more alias nodes (`*name`) than the limit from its tokens alone, before any
 * document is composed (docs/publishing.md §6 "Limits"): composing and walking are what an alias
 * bomb makes expensive, lexing is one linear pass. An alias is a token that starts with `*` and is
 * not a scalar's text (the lexer marks every scalar's text with \x1f first, a block scalar's too).
 */
function refuseTooManyAliases(content: string): void {
  let aliases = 0;
  let offset = 0;
  let previous = "";
  for (const token of new Lexer().lex(content)) {
    if (token.charCodeAt(0) === 0x2a && previous !== "\x1f" && ++aliases > IMPORT_LIMITS.yamlAliases) {
      const before = content.slice(0, offset);
      const line = before.split("\n").length;
      throw invalid(`more than ${IMPORT_LIMITS.yamlAliases} aliases (the limit of one file)`, line, offset - before.lastIndexOf("\n"));
    }
    if (!LEXER_MARKS.has(token)) offset += token.length;
    previous = token;
  }
}

/** Reads a YAML file (yaml.ts): a mapping of strings, nested mappings flattened with ".". */
export function readYaml(content: string): FileLanguage {
  refuseTooManyAliases(content);
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
