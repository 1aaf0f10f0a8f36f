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
  const checker = new SnapshotChecker(source);
  for (const lang of checker.languages) {
    const args = checker.check(lang, checker.valuesOf(lang));
    keepArguments?.(lang.code, args);
    await yieldToRequests();
  }
  return checker.result();
}

type CheckedLanguage = SnapshotSource["languages"][number];

/**
 * The checks one language at a time, in the order they must run (the base language first: every
 * other language is compared with it). A publish checks a language and writes its files from the
 * same values and the same reads, so each value is read from the database and parsed once
 * (docs/publishing.md §2).
 */
export class SnapshotChecker {
  /** Base first, then the others in the snapshot's order. */
  readonly languages: CheckedLanguage[];
  private readonly catalog = new PluralCatalog();
  private readonly base: CheckedLanguage | undefined;
  private readonly baseValues: (string | undefined)[];
  private readonly baseReads: (ReadMessage | undefined)[];
  private readonly errored: ErroredValue[] = [];
  private readonly errorsByLanguage = new Map<string, ProblemItem[]>();
  errorCount = 0;

  constructor(private readonly source: SnapshotSource) {
    this.base = source.languages.find((l) => l.isBase);
    this.baseValues = this.base ? source.valuesOf(this.base.code) : [];
    this.baseReads = this.baseValues.map((v) => (v === undefined ? undefined : readMessage(v, source.syntax)));
    if (this.base && source.syntax === "i18next") baseOfForms(source.keys, this.baseReads);
    this.languages = this.base ? [this.base, ...source.languages.filter((l) => l !== this.base)] : source.languages;
  }

  /** A language's values: the base language's are already held. */
  valuesOf(lang: CheckedLanguage): (string | undefined)[] {
    return lang === this.base ? this.baseValues : this.source.valuesOf(lang.code);
  }

  /** Checks one language's values; answers each value's arguments, for the files' placeholders. */
  check(lang: CheckedLanguage, values: (string | undefined)[]): (readonly MessageArgument[] | undefined)[] {
    const { syntax, keys, keyIds } = this.source;
    const isBase = lang === this.base;
    const ctx: CheckContext = { syntax, languageName: lang.name, plurals: this.catalog.of(lang.code), baseName: this.base?.name ?? "base", base: null };
    const args = new Array<readonly MessageArgument[] | undefined>(keys.length);
    const found: ProblemItem[] = [];
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      const read = isBase ? this.baseReads[i]! : readMessage(value, syntax);
      if (read.arguments.length > 0) args[i] = read.arguments;
      ctx.base = isBase ? null : (this.baseReads[i] ?? null);
      // Errors only: warnings never block a publish, and the plural checks find nothing else.
      const problems = messageErrors(value, read, ctx);
      if (problems.length > 0 && this.errored.length < HINT_SAMPLE) this.errored.push({ value, base: isBase ? null : (this.baseValues[i] ?? null) });
      for (const p of problems) {
        if (p.severity !== "error") continue;
        this.errorCount++;
        if (found.length < REFUSAL_LISTS_AT_MOST) found.push({ key_id: keyIds[i]!, key: keys[i]!, language_code: lang.code, ...p });
      }
    }
    this.errorsByLanguage.set(lang.code, found);
    return args;
  }

  /** What the languages checked so far found. */
  result(): SnapshotCheck {
    const { keys, syntax } = this.source;
    // Key order first, then language code, as the problem list orders them.
    const all = [...this.errorsByLanguage.values()].flat();
    const keyPosition = new Map(keys.map((k, i) => [k, i]));
    all.sort((a, b) => keyPosition.get(a.key)! - keyPosition.get(b.key)! || (a.language_code < b.language_code ? -1 : a.language_code > b.language_code ? 1 : 0));
    return { errorCount: this.errorCount, errors: all.slice(0, REFUSAL_LISTS_AT_MOST), hint: syntaxHint(this.errored, syntax) };
  }
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
