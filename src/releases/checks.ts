import { HttpError } from "../common/errors.ts";
import { messageErrors, type CheckContext, type ProblemItem } from "../messages/check.ts";
import { HINT_SAMPLE, syntaxHint, type ErroredValue, type SyntaxHint } from "../messages/hint.ts";
import { pluralFormIn } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import { readMessage, type MessageArgument, type ReadMessage } from "../messages/read.ts";
import type { Snapshot, SnapshotSource } from "./snapshot.ts";

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
  const byCode = new Map(snapshot.languages.map((l) => [l.code, l]));
  const source = { ...snapshot, valuesOf: (code: string) => byCode.get(code)!.values, close() {} };
  return checkSource(source, (code, args) => (byCode.get(code)!.arguments = args));
}

/**
 * The same checks over a snapshot read one language at a time (a publish): only the base
 * language's reads and the current language's values are held at once.
 */
export async function checkSource(
  source: SnapshotSource,
  keepArguments?: (code: string, args: (readonly MessageArgument[] | undefined)[]) => void,
): Promise<SnapshotCheck> {
  const { syntax, keys, keyIds } = source;
  const catalog = new PluralCatalog();
  const base = source.languages.find((l) => l.isBase);
  const baseValues = base ? source.valuesOf(base.code) : [];
  const baseReads: (ReadMessage | undefined)[] = baseValues.map((v) => (v === undefined ? undefined : readMessage(v, syntax)));
  if (base && syntax === "i18next") baseOfForms(keys, baseReads);
  const result: SnapshotCheck = { errorCount: 0, errors: [], hint: null };
  const errored: ErroredValue[] = [];
  const ordered = base ? [base, ...source.languages.filter((l) => l !== base)] : source.languages;
  const errorsByLanguage = new Map<string, ProblemItem[]>();
  for (const lang of ordered) {
    const ctx: CheckContext = { syntax, languageName: lang.name, plurals: catalog.of(lang.code), baseName: base?.name ?? "base", base: null };
    const args = keepArguments && new Array<readonly MessageArgument[] | undefined>(keys.length);
    const found: ProblemItem[] = [];
    const values = source.valuesOf(lang.code);
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      const read = lang === base ? baseReads[i]! : readMessage(value, syntax);
      if (args && read.arguments.length > 0) args[i] = read.arguments;
      ctx.base = lang === base ? null : (baseReads[i] ?? null);
      // Errors only: warnings never block a publish, and the plural checks find nothing else.
      const problems = messageErrors(value, read, ctx);
      if (problems.length > 0 && errored.length < HINT_SAMPLE) errored.push({ value, base: lang === base ? null : (baseValues[i] ?? null) });
      for (const p of problems) {
        if (p.severity !== "error") continue;
        result.errorCount++;
        if (found.length < REFUSAL_LISTS_AT_MOST) found.push({ key_id: keyIds[i]!, key: keys[i]!, language_code: lang.code, ...p });
      }
    }
    if (args) keepArguments!(lang.code, args);
    errorsByLanguage.set(lang.code, found);
    await yieldToRequests();
  }
  // Key order first, then language code, as the problem list orders them.
  const all = [...errorsByLanguage.values()].flat();
  const keyPosition = new Map(keys.map((k, i) => [k, i]));
  all.sort((a, b) => keyPosition.get(a.key)! - keyPosition.get(b.key)! || (a.language_code < b.language_code ? -1 : a.language_code > b.language_code ? 1 : 0));
  result.errors = all.slice(0, REFUSAL_LISTS_AT_MOST);
  result.hint = syntaxHint(errored, syntax);
  return result;
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
