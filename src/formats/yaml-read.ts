import { isAlias, isMap, isScalar, isSeq, Lexer, LineCounter, parseDocument, type Document, type Node as YamlNode } from "yaml";
import type { WorkCounter } from "../common/work.ts";
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

/** The lexer's own marks between tokens (document start, scalar, flow end): not text of the file. */
const LEXER_MARKS = new Set(["\x02", "\x18", "\x1f"]);

/** Tokens between a node's properties and its content: white space, line breaks, comments. */
const isGap = (token: string) => /^[ \t\n\r]*$/.test(token) || token.charCodeAt(0) === 0x23; /* # */

/** Whether a quoted scalar's token ends with its closing quote (a `\"` inside a double-quoted one escapes it). */
function quoteClosed(token: string): boolean {
  const quote = token[0]!;
  if (token.length < 2 || !token.endsWith(quote)) return false;
  if (quote === "'") return true;
  let backslashes = 0;
  for (let i = token.length - 2; i > 0 && token[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * One pass over the file's tokens before any document is composed (docs/formats.md "YAML";
 * docs/publishing.md §6 "Limits"), refusing with the line and column what only a hostile file
 * holds and what made the library's work grow with the square of the file: more alias nodes
 * (`*name`) or anchors (`&name`) than the limit, two anchors or two tags on one node (`&a &a &a
 * …`: the library reports each, and each report cost the length of the line), collections nested
 * deeper than a translation file (flow `{a: {a: …`, block `- - - …` or indentation); and where a
 * quoted scalar that is never closed opens (the parser reports only the end of the file). Lexing
 * is one linear pass (each token a slice of the file); `work` is charged the characters of the
 * tokens and a step per token. An alias, anchor or tag is a token starting with `*`, `&` or `!` that
 * is not a scalar's text (the lexer marks every scalar's text with \x1f first, a block scalar's too).
 */
function refuseHostileShapes(content: string, work?: WorkCounter): { unclosedQuote?: number } {
  let aliases = 0;
  let anchors = 0;
  let offset = 0;
  let previous = "";
  /** The kind of node property (`&` or `!`) seen since the last content token. */
  let property = "";
  let flowDepth = 0;
  /** Block nesting: the indentation of each open level, and the `-`/`?` indicators on this line. */
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  let unclosedQuote: number | undefined;
  const fail = (why: string): never => {
    const before = content.slice(0, offset);
    throw invalid(why, before.split("\n").length, offset - before.lastIndexOf("\n"));
  };
  const tooDeep = () => fail(`collections are nested deeper than ${IMPORT_LIMITS.depth} levels`);
  for (const token of new Lexer().lex(content)) {
    if (work) work.steps += token.length + 1;
    const c = token.charCodeAt(0);
    const text = previous !== "\x1f";
    if (text && c === 0x2a /* * */ && ++aliases > IMPORT_LIMITS.yamlAliases) fail(`more than ${IMPORT_LIMITS.yamlAliases} aliases (the limit of one file)`);
    if (text && (c === 0x26 /* & */ || c === 0x21) /* ! */) {
      if (c === 0x26 && ++anchors > IMPORT_LIMITS.yamlAliases) fail(`more than ${IMPORT_LIMITS.yamlAliases} anchors (the limit of one file)`);
      if (property === token[0]) fail(`a node with two ${c === 0x26 ? "anchors" : "tags"}: a node has at most one`);
      property = token[0]!;
    } else if (!LEXER_MARKS.has(token) && !isGap(token)) property = "";
    if (text && (c === 0x22 || c === 0x27) /* " ' */ && unclosedQuote === undefined && !quoteClosed(token)) unclosedQuote = offset;
    if (token === "{" || token === "[") {
      if (++flowDepth > IMPORT_LIMITS.depth) tooDeep();
    } else if ((token === "}" || token === "]") && flowDepth > 0) flowDepth--;
    if (token === "\n") {
      lineStart = true;
      indent = 0;
      indicators = 0;
    } else if (flowDepth === 0 && !LEXER_MARKS.has(token)) {
      if (lineStart && /^[ \t]+$/.test(token)) indent = token.length;
      else if (lineStart && c !== 0x23 /* # */) {
        // A line's first content: the levels its indentation closes, and the one it opens.
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        lineStart = false;
      }
      if (token === "-" || token === "?") indicators++;
      if (indents.length + indicators > IMPORT_LIMITS.depth + 1) tooDeep();
    }
    if (!LEXER_MARKS.has(token)) offset += token.length;
    previous = token;
  }
  return unclosedQuote === undefined ? {} : { unclosedQuote };
}

/** Reads a YAML file (yaml.ts): a mapping of strings, nested mappings flattened with ".". */
export function readYaml(content: string, work?: WorkCounter): FileLanguage {
  const { unclosedQuote } = refuseHostileShapes(content, work);
  // The failsafe schema reads every scalar as the text written, so `yes`, `1.0` or `null` stay
  // those strings in YAML 1.1 and 1.2 alike, instead of turning into booleans, numbers or nothing.
  // Duplicate keys are found by the walk (the library's own check compares every pair with every
  // other: 15 s for 50,000 keys). Errors are not made "pretty": that quotes the line of each one,
  // and thousands of errors on one long line cost its length each; the first is placed here.
  const lines = new LineCounter();
  if (work) work.steps += 2 * content.length; // the parse and the composition
  const doc = parseDocument(content, { schema: "failsafe", uniqueKeys: false, prettyErrors: false, lineCounter: lines });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const opened = error.code === "MISSING_CHAR" && /quote/.test(error.message) ? unclosedQuote : undefined;
    const start = lines.linePos(opened ?? error.pos[0]);
    throw invalid(`not valid YAML: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`, start.line, start.col);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) return { entries: [] };
  if (!isMap(root)) throw invalid(`YAML must hold a mapping at the top, not ${isSeq(root) ? "a list" : "text"}`, 1, 1);
  const walker = new YamlWalker(doc, lines);
  walker.walk(root, "", 1);
  return { entries: walker.out.list() };
}
