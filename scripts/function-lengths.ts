/**
 * The length of every function in TypeScript sources, for the dashboard's rule "no page function
 * over 80 lines" (docs/decisions.md "Pages as components"; held by
 * test/architecture/function-length.test.ts). A small scanner rather than a compiler: it blanks
 * comments, strings, template text and regular expressions (keeping line breaks), then pairs the
 * braces that are left and keeps those that open a function body: after `=>`, or after the `)` of
 * a parameter list (with or without a return type) that does not belong to `if`, `for`, `while`,
 * `switch`, `catch` or `with`. A function's length counts its lines from the one with its opening
 * brace to the one with its closing brace, nested functions included.
 *
 *   bun scripts/function-lengths.ts [--over N] FILE_OR_DIR...
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface FunctionLength {
  file: string;
  name: string;
  /** 1-based line of the opening brace. */
  line: number;
  lines: number;
}

/** Words after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX_WORDS = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
const CONTROL_WORDS = new Set(["if", "for", "while", "switch", "catch", "with"]);

/** The source with comments, strings, template text and regular expressions blanked (same length, same line breaks). */
export function blanked(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  /** Braces of `${` in template literals, so their `}` returns to the template. */
  const templateDepth: number[] = [];
  let braceDepth = 0;
  let lastSignificant = "";
  let lastWord = "";
  let i = 0;
  const templateText = (start: number): number => {
    // From just after ` or }, to the closing ` (returns after it) or to `${` (returns after it, pushing the depth).
    let j = start;
    while (j < source.length) {
      const c = source[j]!;
      if (c === "\\") j += 2;
      else if (c === "`") {
        blank(start, j);
        return j + 1;
      } else if (c === "$" && source[j + 1] === "{") {
        blank(start, j);
        templateDepth.push(braceDepth);
        braceDepth++;
        return j + 2;
      } else j++;
    }
    blank(start, j);
    return j;
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = c;
      lastWord = "";
      continue;
    }
    if (c === "`") {
      i = templateText(i + 1);
      lastSignificant = "`";
      lastWord = "";
      continue;
    }
    if (c === "/") {
      const regexAllowed = lastSignificant === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastSignificant) || BEFORE_REGEX_WORDS.has(lastWord);
      if (regexAllowed) {
        let j = i + 1;
        let inClass = false;
        while (j < source.length && source[j] !== "\n") {
          const d = source[j]!;
          if (d === "\\") j += 2;
          else if (d === "[") (inClass = true), j++;
          else if (d === "]") (inClass = false), j++;
          else if (d === "/" && !inClass) break;
          else j++;
        }
        blank(i + 1, j);
        i = j + 1;
        while (i < source.length && /[a-z]/.test(source[i]!)) i++;
        lastSignificant = "/";
        lastWord = "";
        continue;
      }
    }
    if (c === "{") braceDepth++;
    else if (c === "}") {
      braceDepth--;
      if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braceDepth) {
        templateDepth.pop();
        i = templateText(i + 1);
        lastSignificant = "`";
        lastWord = "";
        continue;
      }
    }
    if (/[A-Za-z_$0-9]/.test(c)) {
      let j = i;
      while (j < source.length && /[A-Za-z_$0-9]/.test(source[j]!)) j++;
      lastWord = source.slice(i, j);
      lastSignificant = "a";
      i = j;
      continue;
    }
    if (!/\s/.test(c)) {
      lastSignificant = c;
      lastWord = "";
    }
    i++;
  }
  return out.join("");
}

/** The index of the bracket matching the closing one at `close`, scanning back; -1 if none. */
function openerOf(text: string, close: number, open: string, shut: string): number {
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    if (text[k] === shut) depth++;
    else if (text[k] === open && --depth === 0) return k;
  }
  return -1;
}

/** The `)` of a parameter list whose return type ends right before `at` (`): Promise<X> {`), or -1. */
function returnTypeParen(text: string, at: number): number {
  let k = at;
  for (let steps = 0; k >= 0 && steps < 400; steps++) {
    const c = text[k]!;
    if (c === ">") k = openerOf(text, k, "<", ">") - 1;
    else if (c === "]") k = openerOf(text, k, "[", "]") - 1;
    else if (c === "}") k = openerOf(text, k, "{", "}") - 1;
    else if (c === ")") k = openerOf(text, k, "(", ")") - 1;
    else if (c === "\n") return -1;
    else if (/[\s\w.$|&?,]/.test(c)) k--;
    else if (c === ":") {
      let p = k - 1;
      while (p >= 0 && /\s/.test(text[p]!)) p--;
      return text[p] === ")" ? p : -1;
    } else return -1;
    if (k < -1) return -1;
  }
  return -1;
}

function wordBefore(text: string, at: number): string {
  let k = at - 1;
  while (k >= 0 && /\s/.test(text[k]!)) k--;
  const end = k + 1;
  while (k >= 0 && /[\w$]/.test(text[k]!)) k--;
  return text.slice(k + 1, end);
}

/** A name for the function whose parameters open at `paren` (or whose body opens at `brace` for `x => {`). */
function nameNear(text: string, start: number): string {
  const lineStart = text.lastIndexOf("\n", start) + 1;
  const head = text.slice(lineStart, start + 1);
  const m = /(?:function\s*\*?\s*([\w$]+))|(?:(?:const|let|var)\s+([\w$]+))|([\w$]+)\s*(?:=|:)\s*(?:async\s*)?(?:\(|[\w$]+\s*=>)|(?:^\s*(?:async\s+|get\s+|set\s+|static\s+|private\s+|public\s+)*([\w$]+)\s*\()/.exec(head);
  return m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? "(anonymous)";
}

/** Every function body in `source` with its length in lines. */
export function functionLengths(source: string, file = ""): FunctionLength[] {
  const text = blanked(source);
  const lineAt: number[] = [];
  for (let k = 0, line = 1; k < text.length; k++) {
    lineAt[k] = line;
    if (text[k] === "\n") line++;
  }
  const stack: { at: number; fn: { name: string } | null }[] = [];
  const out: FunctionLength[] = [];
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === "{") {
      let p = k - 1;
      while (p >= 0 && /\s/.test(text[p]!)) p--;
      let fn: { name: string } | null = null;
      if (text[p] === ">" && text[p - 1] === "=") {
        const arrowAt = p - 1;
        let q = arrowAt - 1;
        while (q >= 0 && /\s/.test(text[q]!)) q--;
        const paramStart = text[q] === ")" ? openerOf(text, q, "(", ")") : q;
        fn = { name: nameNear(text, Math.max(paramStart, 0)) };
      } else {
        const lineStart = text.lastIndexOf("\n", k) + 1;
        const declaration = /\b(?:class|interface|enum|namespace)\b[^(]*$/.test(text.slice(lineStart, k));
        const close = declaration ? -1 : text[p] === ")" ? p : returnTypeParen(text, p);
        if (close >= 0) {
          const open = openerOf(text, close, "(", ")");
          if (open >= 0 && !CONTROL_WORDS.has(wordBefore(text, open))) fn = { name: nameNear(text, open) };
        }
      }
      stack.push({ at: k, fn });
    } else if (c === "}") {
      const top = stack.pop();
      if (top?.fn) out.push({ file, name: top.fn.name, line: lineAt[top.at]!, lines: lineAt[k]! - lineAt[top.at]! + 1 });
    }
  }
  return out;
}

function* sources(path: string): Generator<string> {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) yield* sources(join(path, name));
  } else if (/\.tsx?$/.test(path) && !path.endsWith(".d.ts")) yield path;
}

/** The functions longer than `max` lines in the files under `paths`, longest first. */
export function functionsOver(max: number, ...paths: string[]): FunctionLength[] {
  const all: FunctionLength[] = [];
  for (const p of paths) for (const file of sources(p)) all.push(...functionLengths(readFileSync(file, "utf8"), file));
  return all.filter((f) => f.lines > max).sort((a, b) => b.lines - a.lines);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const overAt = args.indexOf("--over");
  const max = overAt >= 0 ? Number(args.splice(overAt, 2)[1]) : 0;
  for (const f of functionsOver(max, ...args)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
}
