/**
 * No function in src/cli is over 80 lines (docs/decisions.md "The command-line client"): a
 * command reads its options and calls steps short enough to read whole. TypeScript's own parser
 * is no library here (the type checker is the native build), so the functions are found by a
 * small scanner of the source: strings, template literals, comments and regular expressions
 * skipped; a `{` is a function's body after `=>`, or after the parameters (and return type) of a
 * named function or method.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";

const LIMIT = 80;
const CONTROL = new Set(["if", "for", "while", "switch", "catch", "with", "return", "typeof", "await", "yield"]);
const BEFORE_REGEX = new Set(["(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^", "=>", "&&", "||", "??", "return", "typeof", "case", "of", "in", "throw", "new", "void", "delete"]);

interface Token {
  text: string;
  line: number;
}

/** The source's significant tokens: words, and punctuation one character at a time (but `=>`). */
function tokens(src: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  const templates: number[] = []; // brace depth at which each open `${` of a template returns to its text
  let depth = 0;
  const advance = (to: number, from: number) => {
    for (let k = from; k < to; k++) if (src[k] === "\n") line++;
    return to;
  };
  const templateText = (from: number): number => {
    let k = from;
    for (; k < src.length && src[k] !== "`"; k++) {
      if (src[k] === "\\") k++;
      else if (src[k] === "$" && src[k + 1] === "{") {
        templates.push(depth);
        return advance(k + 2, from);
      }
    }
    return advance(k + 1, from);
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === "\n" || c === " " || c === "\t" || c === "\r") i = advance(i + 1, i);
    else if (src.startsWith("//", i)) i = src.indexOf("\n", i) < 0 ? src.length : src.indexOf("\n", i);
    else if (src.startsWith("/*", i)) i = advance(src.indexOf("*/", i + 2) + 2, i);
    else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < src.length && src[k] !== c) k += src[k] === "\\" ? 2 : 1;
      i = advance(k + 1, i);
    } else if (c === "`") i = templateText(i + 1);
    else if (c === "}" && templates.at(-1) === depth) {
      templates.pop();
      i = templateText(i + 1);
    } else if (c === "/" && (out.length === 0 || BEFORE_REGEX.has(out.at(-1)!.text))) {
      let k = i + 1;
      for (let inClass = false; k < src.length && (inClass || src[k] !== "/"); k++) {
        if (src[k] === "\\") k++;
        else if (src[k] === "[") inClass = true;
        else if (src[k] === "]") inClass = false;
      }
      i = k + 1;
    } else if (/[\w$]/.test(c)) {
      const m = /[\w$]+/y;
      m.lastIndex = i;
      m.exec(src);
      out.push({ text: src.slice(i, m.lastIndex), line });
      i = m.lastIndex;
    } else {
      const text = src.startsWith("=>", i) ? "=>" : src.startsWith("&&", i) || src.startsWith("||", i) || src.startsWith("??", i) ? src.slice(i, i + 2) : c;
      if (text === "{") depth++;
      if (text === "}") depth--;
      out.push({ text, line });
      i += text.length;
    }
  }
  return out;
}

/** The index of the opener matching the closer at `at` (`)` to `(`, `>` to `<`), walking back. */
function opener(t: Token[], at: number): number {
  const pairs: Record<string, string> = { ")": "(", ">": "<", "]": "[", "}": "{" };
  const close = t[at]!.text;
  let depth = 0;
  for (let k = at; k >= 0; k--) {
    if (t[k]!.text === close) depth++;
    else if (t[k]!.text === pairs[close] && --depth === 0) return k;
  }
  return -1;
}

/** Where the function whose body opens at `at` starts, or -1 when that `{` is no function's body. */
function functionStart(t: Token[], at: number): number {
  let k = at - 1;
  if (t[k]?.text === "=>") return k;
  // A return type: walk back over it to the `:` after the parameters.
  if (t[k]?.text !== ")") {
    for (let depth = 0; k >= 0; k--) {
      const x = t[k]!.text;
      if (")]}>".includes(x)) depth++;
      else if ("([{<".includes(x) && --depth < 0) return -1;
      else if (depth === 0 && (x === ";" || x === "=")) return -1;
      else if (depth === 0 && x === ":" && t[k - 1]?.text === ")") break;
    }
    k--;
  }
  if (t[k]?.text !== ")") return -1;
  let before = opener(t, k) - 1;
  if (t[before]?.text === ">") before = opener(t, before) - 1; // a generic function's <T>
  const word = t[before]?.text ?? "";
  return /^[A-Za-z_$][\w$]*$/.test(word) && !CONTROL.has(word) ? before : -1;
}

function longFunctions(path: string): string[] {
  const t = tokens(readFileSync(path, "utf8"));
  const long: string[] = [];
  const open: number[] = [];
  t.forEach((token, i) => {
    if (token.text === "{") open.push(i);
    if (token.text !== "}") return;
    const start = open.pop();
    if (start === undefined) return;
    const at = functionStart(t, start);
    const lines = token.line - (at >= 0 ? t[at]!.line : 0) + 1;
    if (at >= 0 && lines > LIMIT) long.push(`${path.slice(ROOT.length + 1)}:${t[at]!.line}: ${lines} lines`);
  });
  return long;
}

describe("src/cli", () => {
  test(`no function is over ${LIMIT} lines`, () => {
    const dir = join(ROOT, "src", "cli");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.flatMap((f) => longFunctions(join(dir, f)))).toEqual([]);
  });

  test("the scanner finds functions of every form, and not blocks", () => {
    const sample = (body: number) => Array.from({ length: body }, () => "  x++;").join("\n");
    const cases = [`function f(a: { b: string }): Promise<{ c: number }> {\n${sample(90)}\n}`, `const g = async (a: number) => {\n${sample(90)}\n};`, `class C {\n  m<T>(a: T): void {\n${sample(90)}\n  }\n}`, `const o = { w(x) {\n${sample(90)}\n} };`];
    for (const text of cases) {
      const t = tokens(text);
      const bodies = t.flatMap((tok, i) => (tok.text === "{" && functionStart(t, i) >= 0 ? [i] : []));
      expect(bodies, text.split("\n")[0]).toHaveLength(1);
    }
    const blocks = tokens(`if (a) {\n}\nfor (const x of y) {\n}\nconst r = /[{]/.test(s);\nconst s = \`\${a ? "{" : "}"}\`;\ntry {\n} catch (e) {\n}`);
    expect(blocks.flatMap((tok, i) => (tok.text === "{" && functionStart(blocks, i) >= 0 ? [i] : []))).toEqual([]);
  });
});
