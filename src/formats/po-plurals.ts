import { categoriesOf, type Category } from "./plural-forms.ts";

/**
 * gettext's `Plural-Forms` (docs/formats.md "gettext PO"): the header's C expression over `n` is
 * evaluated (never run as code) to see which `msgstr[i]` each number picks, and each index is
 * matched with the CLDR category of the language (Intl.PluralRules) that the same whole numbers
 * select. A header that sends numbers of two categories to one form, or picks a form past
 * `nplurals`, does not describe the language and the file is refused.
 */

/** Whole numbers compared (CLDR categories of whole numbers all show below 1,000, apart from French-style `many` for millions). */
const SAMPLES = 1000;
const EXPRESSION_MAX_LENGTH = 500;

type Expr = (n: number) => number;

class ExpressionError extends Error {}

/** Parses the C expression of `plural=` into a function (a small recursive-descent parser; no eval). */
export function compilePluralExpression(source: string): Expr {
  if (source.length > EXPRESSION_MAX_LENGTH) throw new ExpressionError(`the plural expression is longer than ${EXPRESSION_MAX_LENGTH} characters`);
  const tokens = source.match(/\s*(\d+|n|\|\||&&|==|!=|<=|>=|[<>?:()%*/+\-!])/gy);
  if (!tokens || tokens.join("").length !== source.length) {
    throw new ExpressionError(`cannot read the plural expression "${source}" (only n, numbers, ( ), ?:, ||, &&, ==, !=, <, >, <=, >=, +, -, *, /, % and ! may appear)`);
  }
  const t = tokens.map((x) => x.trim());
  let i = 0;
  const peek = () => t[i];
  const take = (want?: string) => {
    const tok = t[i];
    if (tok === undefined || (want !== undefined && tok !== want)) throw new ExpressionError(`the plural expression "${source}" is incomplete or malformed`);
    i++;
    return tok;
  };
  const binary = (next: () => Expr, ops: Record<string, (a: number, b: number) => number>): (() => Expr) => () => {
    let left = next();
    while (peek() !== undefined && peek()! in ops) {
      const op = ops[take()]!;
      const l = left;
      const r = next();
      left = (n) => op(l(n), r(n));
    }
    return left;
  };
  const primary = (): Expr => {
    const tok = take();
    if (tok === "n") return (n) => n;
    if (/^\d+$/.test(tok)) {
      const v = Number(tok);
      return () => v;
    }
    if (tok === "(") {
      const e = ternary();
      take(")");
      return e;
    }
    if (tok === "!") {
      const e = primary();
      return (n) => (e(n) ? 0 : 1);
    }
    if (tok === "-") {
      const e = primary();
      return (n) => -e(n);
    }
    throw new ExpressionError(`unexpected "${tok}" in the plural expression "${source}"`);
  };
  const div = (a: number, b: number) => {
    if (b === 0) throw new ExpressionError(`the plural expression "${source}" divides by zero`);
    return Math.trunc(a / b);
  };
  const mul = binary(primary, { "*": (a, b) => a * b, "/": div, "%": (a, b) => (b === 0 ? div(a, b) : a % b) });
  const add = binary(mul, { "+": (a, b) => a + b, "-": (a, b) => a - b });
  const rel = binary(add, { "<": (a, b) => +(a < b), ">": (a, b) => +(a > b), "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b) });
  const eq = binary(rel, { "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b) });
  const and = binary(eq, { "&&": (a, b) => +(a !== 0 && b !== 0) });
  const or = binary(and, { "||": (a, b) => +(a !== 0 || b !== 0) });
  function ternary(): Expr {
    const cond = or();
    if (peek() !== "?") return cond;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (cond(n) !== 0 ? yes(n) : no(n));
  }
  const expr = ternary();
  if (i !== t.length) throw new ExpressionError(`unexpected "${t[i]}" in the plural expression "${source}"`);
  return expr;
}

export interface PluralHeader {
  nplurals: number;
  /** The category each `msgstr[i]` holds. */
  categories: Category[];
}

/**
 * The category of each form of a `Plural-Forms` header for `code`; a string saying what is wrong
 * when the header does not fit the language.
 */
export function readPluralForms(header: string, code: string): PluralHeader | string {
  const m = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$/.exec(header);
  if (!m) return `"Plural-Forms: ${header}" is not "nplurals=N; plural=EXPRESSION;"`;
  const nplurals = Number(m[1]);
  if (nplurals < 1 || nplurals > 6) return `nplurals=${nplurals}: a language has 1 to 6 plural forms`;
  let expr: Expr;
  try {
    expr = compilePluralExpression(m[2]!);
  } catch (err) {
    if (err instanceof ExpressionError) return err.message;
    throw err;
  }
  const rules = new Intl.PluralRules(code);
  const byIndex: (Category | undefined)[] = new Array(nplurals);
  const example: number[] = new Array(nplurals);
  for (let n = 0; n <= SAMPLES; n++) {
    let index: number;
    try {
      index = expr(n);
    } catch (err) {
      if (err instanceof ExpressionError) return err.message;
      throw err;
    }
    if (!Number.isInteger(index) || index < 0 || index >= nplurals) return `for n=${n} the plural expression picks form ${index}, but nplurals is ${nplurals}`;
    const category = rules.select(n) as Category;
    const known = byIndex[index];
    if (known === undefined) {
      byIndex[index] = category;
      example[index] = n;
    } else if (known !== category) {
      return `it gives ${example[index]} and ${n} the same form (msgstr[${index}]), but ${code} uses "${known}" for ${example[index]} and "${category}" for ${n}`;
    }
  }
  const unused = byIndex.findIndex((c) => c === undefined);
  if (unused >= 0) return `nplurals=${nplurals}, but no whole number picks msgstr[${unused}] (${code} has ${categoriesOf(code).join(", ")})`;
  const twice = byIndex.findIndex((c, i) => byIndex.indexOf(c) !== i);
  if (twice >= 0) {
    return `msgstr[${byIndex.indexOf(byIndex[twice])}] and msgstr[${twice}] are both for "${byIndex[twice]}" numbers (${example[byIndex.indexOf(byIndex[twice])]} and ${example[twice]}): ${code} has fewer forms than nplurals=${nplurals}`;
  }
  return { nplurals, categories: byIndex as Category[] };
}

/** The `Plural-Forms` gettext's own tables give the common languages; the first that fits a language is written. */
const CANDIDATES = [
  "nplurals=2; plural=(n != 1);",
  "nplurals=1; plural=0;",
  "nplurals=2; plural=(n > 1);",
  "nplurals=2; plural=(n%10!=1 || n%100==11);",
  "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
  "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
  "nplurals=3; plural=(n==1 ? 0 : (n>=2 && n<=4) ? 1 : 2);",
  "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
  "nplurals=3; plural=(n%10==0 || (n%100>=11 && n%100<=19) ? 0 : n%10==1 && n%100!=11 ? 1 : 2);",
  "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100>0 && n%100<20)) ? 1 : 2);",
  "nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);",
  "nplurals=3; plural=(n==0 ? 0 : n==1 ? 1 : 2);",
  "nplurals=3; plural=((n==0 || n==1) ? 0 : (n>=2 && n<=10) ? 1 : 2);",
  "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
  "nplurals=4; plural=(n==1 ? 0 : n==2 ? 1 : (n>10 && n%10==0) ? 2 : 3);",
  "nplurals=4; plural=((n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n>2 && n<20) ? 2 : 3);",
  "nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 : (n>6 && n<11) ? 3 : 4);",
  "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
  "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);",
];

/** The `Plural-Forms` header for a language and the category of each form; undefined when no table entry fits it. */
export function pluralFormsFor(code: string): { header: string; forms: PluralHeader } | undefined {
  for (const header of CANDIDATES) {
    const forms = readPluralForms(header, code);
    if (typeof forms !== "string") return { header, forms };
  }
  return undefined;
}
