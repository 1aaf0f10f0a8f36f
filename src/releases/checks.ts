import { HttpError } from "../common/errors.ts";
import { compareCodePoints } from "../common/text.ts";
import { messageErrors, type CheckContext, type ProblemItem } from "../messages/check.ts";
import { HINT_SAMPLE, syntaxHint, type ErroredValue, type SyntaxHint } from "../messages/hint.ts";
import { pluralFormIn } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import { readMessage, type MessageArgument, type MessageSyntax, type ReadMessage } from "../messages/read.ts";
import type { Snapshot } from "./snapshot.ts";

/**
 * The message checks at publish time (docs/publishing.md §2): every value of the snapshot is read
 * once, checked for the errors a save would find (docs/product.md §7), and its arguments kept for
 * the ARB placeholders, so what ships is exactly what was checked and no stored finding (perhaps
 * older than the last change of the base language or syntax) is relied on.
 */
export interface SnapshotCheck {
  errorCount: number;
  /** The first errors, in key order then language order. */
  errors: ProblemItem[];
  /** When most errors look like another message syntax (docs/messages.md "Hints"). */
  hint: SyntaxHint | null;
}

/** How many errors a refused publish lists; the rest are counted. */
export const REFUSAL_LISTS_AT_MOST = 100;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * An i18next plural form the base language lacks (`items_few` for English) is compared with the
 * base value of its `_other` form (docs/messages.md "i18next plural forms").
 */
function baseOfForms(keys: string[], baseReads: (ReadMessage | undefined)[]): void {
  const names = new Set(keys);
  const position = new Map(keys.map((k, i) => [k, i]));
  keys.forEach((key, i) => {
    if (baseReads[i] !== undefined) return;
    const form = pluralFormIn(key, names);
    if (form) baseReads[i] = baseReads[position.get(form.other)!];
  });
}

/**
 * Checks every value, base language first, and fills each language's `arguments` for the
 * compiler. Yields between languages, so a large project does not hold up other requests.
 */
export async function checkSnapshot(snapshot: Snapshot): Promise<SnapshotCheck> {
  const order = checkingOrder(snapshot.languages);
  const base = order[0]?.isBase ? order[0] : undefined;
  const checker = new MessageChecker({ keys: snapshot.keys, keyIds: snapshot.keyIds, syntax: snapshot.syntax, base: base && { code: base.code, name: base.name, values: base.values } });
  const tally = new CheckTally(snapshot.syntax);
  for (const [position, lang] of order.entries()) {
    const { args, findings } = checker.check(lang, lang.values);
    lang.arguments = args;
    tally.add(position, findings);
    await yieldToRequests();
  }
  return tally.result();
}

/**
 * What checking one language found: every error counted, the first ones listed, and a sample of
 * errored values for the syntax hint. A publish's languages may be checked on several threads;
 * their findings are added up in language order (CheckTally), so the answer does not depend on
 * which thread finished first.
 */
export interface LanguageFindings {
  errorCount: number;
  /** At most REFUSAL_LISTS_AT_MOST, in key order. */
  errors: ProblemItem[];
  /** At most HINT_SAMPLE. */
  errored: ErroredValue[];
}

/** What the checks compare every language with: the keys and the base language's values. */
export interface CheckBase {
  keys: string[];
  keyIds: string[];
  syntax: MessageSyntax;
  base: { code: string; name: string; values: (string | undefined)[] } | undefined;
}

/**
 * The checks of one language at a time against the base language, whose values are read (parsed)
 * once when this is made. Each thread that checks languages of a publish holds one.
 */
export class MessageChecker {
  private readonly catalog = new PluralCatalog();
  private readonly baseReads: (ReadMessage | undefined)[];

  constructor(private readonly input: CheckBase) {
    const values = input.base?.values ?? [];
    this.baseReads = values.map((v) => (v === undefined ? undefined : readMessage(v, input.syntax)));
    if (input.base && input.syntax === "i18next") baseOfForms(input.keys, this.baseReads);
  }

  /** Checks one language's values; answers each value's arguments, for the files' placeholders. */
  check(lang: { code: string; name: string }, values: (string | undefined)[]): { args: (readonly MessageArgument[] | undefined)[]; findings: LanguageFindings } {
    const { syntax, keys, keyIds, base } = this.input;
    const isBase = base !== undefined && lang.code === base.code;
    const ctx: CheckContext = { syntax, languageName: lang.name, plurals: this.catalog.of(lang.code), baseName: base?.name ?? "base", base: null };
    const args = new Array<readonly MessageArgument[] | undefined>(keys.length);
    const findings: LanguageFindings = { errorCount: 0, errors: [], errored: [] };
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      const read = isBase ? this.baseReads[i]! : readMessage(value, syntax);
      if (read.arguments.length > 0) args[i] = read.arguments;
      ctx.base = isBase ? null : (this.baseReads[i] ?? null);
      // Errors only: warnings never block a publish, and the plural checks find nothing else.
      const problems = messageErrors(value, read, ctx);
      if (problems.length > 0 && findings.errored.length < HINT_SAMPLE) findings.errored.push({ value, base: isBase ? null : (base?.values[i] ?? null) });
      for (const p of problems) {
        if (p.severity !== "error") continue;
        findings.errorCount++;
        if (findings.errors.length < REFUSAL_LISTS_AT_MOST) findings.errors.push({ key_id: keyIds[i]!, key: keys[i]!, language_code: lang.code, ...p });
      }
    }
    return { args, findings };
  }
}

/** The findings of a publish's languages, added up in the order the languages are checked. */
export class CheckTally {
  private readonly byLanguage: (LanguageFindings | undefined)[] = [];
  errorCount = 0;

  constructor(private readonly syntax: MessageSyntax) {}

  /** The findings of the language at `position` in the order of checking. */
  add(position: number, findings: LanguageFindings): void {
    this.byLanguage[position] = findings;
    this.errorCount += findings.errorCount;
  }

  /** What the languages added so far found. */
  result(): SnapshotCheck {
    const found = this.byLanguage.filter((f) => f !== undefined);
    // Key order (code-point order, as the snapshot's keys are) first, then language code, as the
    // problem list orders them.
    const all = found.flatMap((f) => f.errors);
    all.sort((a, b) => compareCodePoints(a.key, b.key) || (a.language_code < b.language_code ? -1 : a.language_code > b.language_code ? 1 : 0));
    const errored = found.flatMap((f) => f.errored).slice(0, HINT_SAMPLE);
    return { errorCount: this.errorCount, errors: all.slice(0, REFUSAL_LISTS_AT_MOST), hint: syntaxHint(errored, this.syntax) };
  }
}

/** The languages in the order they are checked: the base language first. */
export function checkingOrder<L extends { isBase: boolean }>(languages: L[]): L[] {
  const base = languages.find((l) => l.isBase);
  return base ? [base, ...languages.filter((l) => l !== base)] : languages;
}

/** 409 with the errors that block publishing (docs/product.md §7). */
export function publishRefusal(check: SnapshotCheck): HttpError {
  const n = check.errorCount;
  const message =
    n === 1
      ? "1 error in a message blocks publishing: fix it, or publish anyway with allow_errors (admins only)"
      : `${n.toLocaleString("en-US")} errors in messages block publishing: fix them, or publish anyway with allow_errors (admins only)`;
  // The hint is said in the error too: a client that prints only `error` still names the fix.
  const error = check.hint ? `${message}. ${check.hint.message}` : message;
  const body = JSON.stringify({ error, error_count: n, problems: check.errors, ...(check.hint ? { syntax_hint: check.hint } : {}) });
  return new HttpError(409, error, {}, body);
}
