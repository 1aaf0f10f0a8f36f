import type { WorkCounter } from "../common/work.ts";
import type { MessageProblem } from "../storage/schema.ts";
import { PLURAL_CATEGORIES, type LanguagePlurals, type PluralRulesOf } from "./plurals.ts";
import type { MessageSyntax, PluralUse, ReadMessage } from "./read-types.ts";
import { SYNTAXES } from "./syntaxes.ts";
import { describeFault } from "./syntax-faults.ts";
import { tagName } from "./markup.ts";

/**
 * The message checks of docs/product.md §7, as plain functions over a value already read
 * (read.ts): the server stores what they find, publishing runs them again, and the dashboard runs
 * the same code while a translator types (docs/messages.md).
 */
export type { MessageProblem };

export interface CheckContext {
  syntax: MessageSyntax;
  /** The value's language as people name it ("German"), and its plural rules (null: no data for it). */
  languageName: string;
  plurals: LanguagePlurals | null;
  /** The base language's name ("English"). */
  baseName: string;
  /** The key's base-language value, read; null for a base-language value or a key without one. */
  base: ReadMessage | null;
  /** Charged the steps of the checks when given (tests hold them to the number of arguments). */
  work?: WorkCounter;
}

const NO_PROBLEMS = Object.freeze([]) as unknown as MessageProblem[];

/** Beyond this many findings of one code, one more sums up the rest (a pasted blob stays readable). */
export const MAX_PROBLEMS_PER_CODE = 5;

type Code = MessageProblem["code"];

class Findings {
  readonly list: MessageProblem[] = [];
  /** Past a few findings, a set keeps the duplicate check linear (a pasted blob can have thousands). */
  private seen: Set<string> | undefined;
  private count = 0;
  private readonly perCode: Partial<Record<Code, number>> = {};

  constructor(private readonly work: WorkCounter | undefined) {}

  private isNew(message: string): boolean {
    if (this.work) this.work.steps += this.seen ? 1 : this.list.length;
    if (this.seen) {
      if (this.seen.has(message)) return false;
      this.seen.add(message);
      return true;
    }
    if (this.list.some((p) => p.message === message)) return false;
    if (++this.count > MAX_PROBLEMS_PER_CODE) this.seen = new Set([...this.list.map((p) => p.message), message]);
    return true;
  }

  add(code: Code, severity: MessageProblem["severity"], message: string): void {
    if (!this.isNew(message)) return;
    const n = (this.perCode[code] ?? 0) + 1;
    this.perCode[code] = n;
    if (n <= MAX_PROBLEMS_PER_CODE) this.list.push({ code, severity, message });
  }

  /** Replaces what a code found past the cap with one line saying how many more there are. */
  summarise(code: Code, severity: MessageProblem["severity"], what: string): void {
    const n = this.perCode[code] ?? 0;
    if (n > MAX_PROBLEMS_PER_CODE) this.list.push({ code, severity, message: `…and ${(n - MAX_PROBLEMS_PER_CODE).toLocaleString("en-US")} more ${what}` });
  }
}

function listWords(words: string[], joiner = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${joiner} ${words[words.length - 1]}`;
}

/** "one and other", "only other": the categories a language has, for a sentence. */
function categoryList(rules: PluralRulesOf): string {
  return rules.categories.length === 1 ? `only ${rules.categories[0]}` : listWords([...rules.categories]);
}

function forNumbers(rules: PluralRulesOf, category: string): string {
  const { integers, fraction } = rules.samples(category);
  if (integers.length > 0) {
    const shown = integers.slice(0, 3).map((n) => n.toLocaleString("en-US"));
    return integers.length > 3 ? `${shown.join(", ")}, …` : listWords(shown);
  }
  return fraction !== undefined ? `fractions such as ${fraction}` : "some numbers";
}

/** What a missing category means in a language, worded once per language and category (a publish says it thousands of times). */
function missingCategoryText(rules: PluralRulesOf, category: string, languageName: string): string {
  return rules.memo(`missing\0${languageName}\0${category}`, () => `which ${languageName} uses for ${forNumbers(rules, category)}; those numbers get the \`other\` text`);
}

/**
 * A category the message leaves out is fine when every whole number that would select it is
 * caught by an exact case first (`=1` covers English `one`; it does not cover Russian `one`,
 * which also takes 21, 31, ...). `=N` compares the number itself, categories the number minus the
 * offset.
 */
function coveredByExactCases(rules: PluralRulesOf, category: string, use: PluralUse): boolean {
  const { integers, fraction } = rules.samples(category);
  if (integers.length === 0 || fraction !== undefined) return false;
  return integers.every((n) => use.exact.includes(n + use.offset));
}

/** Whether a plural spells out exactly the language's categories (the common, correct case). */
function exactlyTheCategories(rules: PluralRulesOf, use: PluralUse): boolean {
  if (use.categories.length !== rules.categories.length) return false;
  for (const c of use.categories) if (!rules.categories.includes(c)) return false;
  return true;
}

/** The findings about one plural's cases, as messages (the same plural in many values is worded once). */
function pluralFindings(use: PluralUse, rules: PluralRulesOf, languageName: string): string[] {
  const arg = `{${use.argument}}`;
  const kind = use.ordinal ? "ordinals" : "plurals";
  const found: string[] = [];
  for (const category of use.categories) {
    if (rules.categories.includes(category)) continue;
    found.push(
      (PLURAL_CATEGORIES as readonly string[]).includes(category)
        ? `\`${arg}\` has a \`${category}\` case, which ${languageName} ${kind} never use (${languageName} has ${categoryList(rules)})`
        : `\`${arg}\` has a case \`${category}\`, which is no plural category (${languageName} ${kind} have ${categoryList(rules)}; =N matches an exact number)`,
    );
  }
  for (const category of rules.categories) {
    if (category === "other" || use.categories.includes(category) || coveredByExactCases(rules, category, use) || rules.rarelyReached(category)) continue;
    found.push(`\`${arg}\` has no \`${category}\` case, ${missingCategoryText(rules, category, languageName)}`);
  }
  return found;
}

const NO_FINDINGS: string[] = [];

function checkPlurals(read: ReadMessage, ctx: CheckContext, out: Findings): void {
  if (!ctx.plurals) return;
  for (const use of read.plurals) {
    if (ctx.work) ctx.work.steps += 1 + use.categories.length + use.exact.length;
    const rules = use.ordinal ? ctx.plurals.ordinal : ctx.plurals.cardinal;
    const found = exactlyTheCategories(rules, use)
      ? NO_FINDINGS
      : rules.memoList(`${ctx.languageName}\0${use.argument}\0${use.offset}\0${use.categories.join(" ")}\0${use.exact.join(" ")}`, () => pluralFindings(use, rules, ctx.languageName));
    for (const message of found) out.add("plural_category", "warning", message);
  }
  out.summarise("plural_category", "warning", "plural case problems");
}

/** Whether two messages use the same argument names (most translations: yes, often in the same order). */
function sameNames(a: ReadMessage["arguments"], b: ReadMessage["arguments"], work: WorkCounter | undefined): boolean {
  if (work) work.steps += 2 * (a.length + b.length); // at most: the walk in order, then the two sets
  if (a.length === b.length && a.every((arg, i) => arg.name === b[i]!.name)) return true;
  const mine = new Set(a.map((x) => x.name));
  const theirs = new Set(b.map((x) => x.name));
  if (mine.size !== theirs.size) return false;
  for (const name of mine) if (!theirs.has(name)) return false;
  return true;
}

const shown = (ctx: CheckContext, name: string) => SYNTAXES[ctx.syntax].show(name);

function unknownPlaceholders(read: ReadMessage, base: ReadMessage, ctx: CheckContext, out: Findings): void {
  if (ctx.work) ctx.work.steps += 3 * (read.arguments.length + base.arguments.length); // two sets, one filter, one loop
  const mine = new Set(read.arguments.map((a) => a.name));
  const theirs = new Set(base.arguments.map((a) => a.name));
  const severity = SYNTAXES[ctx.syntax].unknownSeverity;
  // Suggest what the base text has and this value lacks (a misspelt name), else all it has.
  const missing = base.arguments.filter((a) => !mine.has(a.name)).map((a) => a.name);
  const suggestions = (missing.length > 0 ? missing : [...theirs]).slice(0, 3).map((n) => shown(ctx, n));
  for (const { name } of read.arguments) {
    if (theirs.has(name)) continue;
    out.add(
      "placeholder_unknown",
      severity,
      theirs.size === 0
        ? `${shown(ctx, name)} is not in the ${ctx.baseName} text, which has no placeholders`
        : `${shown(ctx, name)} is not in the ${ctx.baseName} text; use ${listWords(suggestions, "or")}`,
    );
  }
  out.summarise("placeholder_unknown", severity, `placeholders are not in the ${ctx.baseName} text`);
}

function missingPlaceholders(read: ReadMessage, base: ReadMessage, ctx: CheckContext, out: Findings): void {
  if (ctx.work) ctx.work.steps += read.arguments.length + base.arguments.length;
  const mine = new Set(read.arguments.map((a) => a.name));
  for (const { name } of base.arguments) if (!mine.has(name)) out.add("placeholder_missing", "warning", `${shown(ctx, name)} from the ${ctx.baseName} text is missing`);
  out.summarise("placeholder_missing", "warning", `placeholders of the ${ctx.baseName} text are missing`);
}

function syntaxProblem(value: string, fault: NonNullable<ReadMessage["fault"]>, ctx: CheckContext): MessageProblem {
  if (ctx.work) ctx.work.steps += fault.start; // describeFault counts the characters before it
  return { code: "icu_syntax", severity: "error", message: describeFault(value, fault) };
}

/**
 * The problems of one value, errors first (docs/product.md §7): `icu_syntax` (then nothing else can
 * be said), `placeholder_unknown`, `plural_category`, `placeholder_missing`. A base-language value
 * is checked for syntax and plural cases only; placeholders are compared with a base value that
 * parses.
 */
export function checkMessage(value: string, read: ReadMessage, ctx: CheckContext): MessageProblem[] {
  if (read.fault) return [syntaxProblem(value, read.fault, ctx)];
  const base = ctx.base && !ctx.base.fault ? ctx.base : null;
  if (base && hasUnits(read, base)) return withNative(checkArguments(value, read, ctx, base), read, base, ctx, false);
  return checkArguments(value, read, ctx, base);
}

function checkArguments(value: string, read: ReadMessage, ctx: CheckContext, base: ReadMessage | null): MessageProblem[] {
  // The common case, and the hot path of a publish: no argument here or in the base text.
  if (read.arguments.length === 0 && (!base || base.arguments.length === 0)) return NO_PROBLEMS;
  const compare = base !== null && !sameNames(read.arguments, base.arguments, ctx.work);
  const plurals = SYNTAXES[ctx.syntax].pluralsInMessage;
  if (!compare && (read.plurals.length === 0 || !plurals)) return NO_PROBLEMS;
  // Written in the order they are listed: placeholder_unknown (an error in ICU), plural_category, placeholder_missing.
  const out = new Findings(ctx.work);
  if (compare) unknownPlaceholders(read, base, ctx, out);
  if (plurals) checkPlurals(read, ctx, out);
  if (compare) missingPlaceholders(read, base, ctx, out);
  return out.list;
}

/**
 * Only the errors of `checkMessage`, the same ones in the same order: what a publish needs to
 * refuse (docs/product.md §7: warnings never block). It skips the plural and missing-placeholder
 * checks, which find warnings only, and so costs a publish less on every plural it ships.
 */
export function messageErrors(value: string, read: ReadMessage, ctx: CheckContext): MessageProblem[] {
  if (read.fault) return [syntaxProblem(value, read.fault, ctx)];
  // In the text syntax nothing is an error (docs/messages.md "Problems").
  if (SYNTAXES[ctx.syntax].unknownSeverity !== "error") return NO_PROBLEMS;
  const base = ctx.base && !ctx.base.fault ? ctx.base : null;
  if (base && hasUnits(read, base)) return withNative(icuErrors(read, base, ctx), read, base, ctx, true);
  return icuErrors(read, base, ctx);
}

function icuErrors(read: ReadMessage, base: ReadMessage | null, ctx: CheckContext): MessageProblem[] {
  if (base === null || read.arguments.length === 0 || sameNames(read.arguments, base.arguments, ctx.work)) return NO_PROBLEMS;
  const out = new Findings(ctx.work);
  unknownPlaceholders(read, base, ctx, out);
  return out.list;
}

/** Whether a translation or its base value has native placeholders or tags to compare. */
function hasUnits(read: ReadMessage, base: ReadMessage): boolean {
  return read.native !== undefined || base.native !== undefined || read.tags !== undefined || base.tags !== undefined;
}

/**
 * Native placeholders (`%1$s`, `%@`) and tags (`<b>…</b>`, `<xliff:g …>`) compared like ICU
 * arguments (docs/formats.md "Placeholders", docs/messages.md "Tags"): one the base text lacks is
 * `placeholder_unknown` (an error in every syntax but `text`), and so is a tag of the base text
 * left unclosed or closed without being opened; one the base text has and the translation lacks is
 * `placeholder_missing`. Errors stay before warnings.
 */
function withNative(found: MessageProblem[], read: ReadMessage, base: ReadMessage, ctx: CheckContext, errorsOnly: boolean): MessageProblem[] {
  const mine = read.native ?? [];
  const theirs = base.native ?? [];
  if (ctx.work) ctx.work.steps += mine.length + theirs.length;
  const severity = SYNTAXES[ctx.syntax].unknownSeverity;
  const unknown: MessageProblem[] = [];
  const missing: MessageProblem[] = [];
  for (const p of mine) {
    if (theirs.includes(p)) continue;
    const hint = theirs.filter((t) => !mine.includes(t));
    unknown.push({
      code: "placeholder_unknown",
      severity,
      message: `\`${p}\` is not in the ${ctx.baseName} text${theirs.length === 0 ? ", which has no placeholders" : `; use ${(hint.length > 0 ? hint : theirs).slice(0, 3).map((t) => `\`${t}\``).join(" or ")}`}`,
    });
  }
  if (!errorsOnly) for (const p of theirs) if (!mine.includes(p)) missing.push({ code: "placeholder_missing", severity: "warning", message: `\`${p}\` from the ${ctx.baseName} text is missing` });
  compareTags(read, base, ctx, severity, unknown, errorsOnly ? null : missing);
  if (unknown.length === 0 && missing.length === 0) return found;
  if (errorsOnly && severity !== "error") return found;
  const list = [...found];
  const firstWarning = list.findIndex((p) => p.severity === "warning");
  list.splice(firstWarning < 0 ? list.length : firstWarning, 0, ...unknown.slice(0, MAX_PROBLEMS_PER_CODE));
  list.push(...missing.slice(0, MAX_PROBLEMS_PER_CODE));
  return list;
}

/**
 * The tags of a translation against its base value's (markup.ts): a tag the base text lacks, and
 * an unpaired tag whose element the base text uses as a tag (an unpaired one it does not use is
 * text: `List<String>`), are unknown; a tag of the base text the translation lacks is missing
 * (unless it is there, unpaired, and so already said).
 */
function compareTags(read: ReadMessage, base: ReadMessage, ctx: CheckContext, severity: MessageProblem["severity"], unknown: MessageProblem[], missing: MessageProblem[] | null): void {
  const mine = read.tags;
  const theirs = base.tags?.tags ?? [];
  if (!mine && theirs.length === 0) return;
  if (ctx.work) ctx.work.steps += (mine ? mine.tags.length + mine.unpaired.length : 0) + theirs.length;
  const theirSet = new Set(theirs);
  const theirNames = new Set(theirs.map(tagName));
  const myTags = new Set(mine?.tags ?? []);
  const myUnpaired = new Set(mine?.unpaired ?? []);
  for (const t of myTags) {
    if (!theirSet.has(t)) unknown.push({ code: "placeholder_unknown", severity, message: `\`${t}\` is not in the ${ctx.baseName} text` });
  }
  for (const t of myUnpaired) {
    const name = tagName(t);
    if (!theirNames.has(name)) continue;
    unknown.push({
      code: "placeholder_unknown",
      severity,
      message: t.startsWith("</") ? `\`${t}\` closes no \`<${name}>\`` : `\`${t}\` is never closed: \`</${name}>\` is missing`,
    });
  }
  if (!missing) return;
  for (const t of theirs) {
    if (!myTags.has(t) && !myUnpaired.has(t)) missing.push({ code: "placeholder_missing", severity: "warning", message: `\`${t}\` from the ${ctx.baseName} text is missing` });
  }
}

/** How many findings of each severity (the counts stored beside them). */
export function countBySeverity(problems: readonly MessageProblem[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const p of problems) if (p.severity === "error") errors++;
  return { errors, warnings: problems.length - errors };
}

/** A problem and where it is, as the problem list and a refused publish show it (docs/product.md §7). */
export interface ProblemItem extends MessageProblem {
  key_id: string;
  key: string;
  language_code: string;
}
