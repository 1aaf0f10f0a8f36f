import { eq } from "drizzle-orm";
import { log } from "../common/log.ts";
import { checkMessage, countBySeverity, type MessageProblem } from "../messages/check.ts";
import { GlossaryMatcher, glossaryFindings } from "../messages/glossary.ts";
import { formsNeeded, languageHasForm, pluralSuffix, type PluralForm } from "../messages/plural-forms.ts";
import { PluralCatalog, type LanguagePlurals } from "../messages/plurals.ts";
import { readMessage, type ReadMessage } from "../messages/read.ts";
import type { Db } from "../storage/db.ts";
import { projects, type ProjectRow } from "../storage/schema.ts";
import { prepareCheckQueries, type CheckQueries } from "./queries.ts";

/**
 * The message checks where values are stored (docs/product.md §7, docs/messages.md "When"): every
 * saved or imported value gets its findings in the same transaction; a changed base value rechecks
 * the key's other translations with it; a changed base language or message syntax rechecks the
 * whole project, and values stored before the checks existed are checked after start, both in
 * chunks that leave room for other requests.
 */
export interface Findings {
  problems: MessageProblem[];
  errors: number;
  warnings: number;
}

interface LanguageInfo {
  code: string;
  name: string;
}

/**
 * What the checks of a translation take from its key's base value (messages/check.ts): nothing
 * when there is none or it does not parse, else its placeholder names in order of first use (the
 * order the suggestions of placeholder_unknown list them in), its native placeholders and its tags.
 */
function baseShape(base: ReadMessage | null): string {
  return base === null || base.fault ? "" : JSON.stringify([base.arguments.map((a) => a.name), base.native ?? [], base.tags?.tags ?? []]);
}

/**
 * Each connection's matchers of the projects' glossaries, kept while a glossary is unchanged (a
 * save makes a ProjectChecks, and a glossary of thousands of terms is one large pattern).
 */
const glossaries = new WeakMap<object, Map<number, { stamp: string; matcher: GlossaryMatcher | null }>>();

function glossaryMatcher(db: Db, q: CheckQueries, projectId: number): GlossaryMatcher | null {
  const stamp = q.glossaryStamp.get(projectId)!.stamp;
  let byProject = glossaries.get(db.$client);
  if (!byProject) glossaries.set(db.$client, (byProject = new Map()));
  const known = byProject.get(projectId);
  if (known?.stamp === stamp) return known.matcher;
  const terms = q.glossaryTerms.all(projectId).map((t) => ({
    term: t.term,
    translations: JSON.parse(t.translations) as Record<string, string>,
    caseSensitive: t.caseSensitive === 1,
    doNotTranslate: t.doNotTranslate === 1,
  }));
  const matcher = terms.length > 0 ? new GlossaryMatcher(terms) : null;
  byProject.set(projectId, { stamp, matcher });
  return matcher;
}

/** One project's checking context: its syntax, base language and languages, and glossary, read once. */
export class ProjectChecks {
  readonly syntax: ProjectRow["messageSyntax"];
  private readonly q: CheckQueries;
  private readonly languages = new Map<number, LanguageInfo>();
  private readonly baseLanguageId: number | undefined;
  private readonly catalog = new PluralCatalog();
  /** The project's glossary (the `glossary` check), null when it has none. */
  readonly glossary: GlossaryMatcher | null;

  constructor(db: Db, project: ProjectRow) {
    this.q = prepareCheckQueries(db);
    this.syntax = project.messageSyntax;
    this.glossary = glossaryMatcher(db, this.q, project.id);
    let baseId: number | undefined;
    for (const l of this.q.languages.all(project.id)) {
      this.languages.set(l.id, { code: l.code, name: l.name });
      if (l.code === project.baseLanguageCode) baseId = l.id;
    }
    this.baseLanguageId = baseId;
  }

  isBase(languageId: number): boolean {
    return languageId === this.baseLanguageId;
  }

  /** The key's base-language value as stored, for a value of another language (null: none, or `languageId` is the base). */
  baseValue(keyId: number, languageId: number): string | null {
    if (this.isBase(languageId) || this.baseLanguageId === undefined) return null;
    return this.q.value.get(keyId, this.baseLanguageId)?.value ?? null;
  }

  private baseName(): string {
    return (this.baseLanguageId !== undefined && this.languages.get(this.baseLanguageId)?.name) || "base";
  }

  /**
   * The findings for `value` in a language of key `keyId`. The key's base value is read from the
   * database unless given (`null`: the key has none); a base-language value is checked alone.
   */
  findings(keyId: number, languageId: number, value: string, base?: ReadMessage | null, baseText?: string | null): Findings {
    const lang = this.languages.get(languageId);
    if (!lang) return { problems: [], errors: 0, warnings: 0 };
    let baseRead: ReadMessage | null = null;
    let baseValue: string | null = baseText ?? null;
    if (!this.isBase(languageId) && this.baseLanguageId !== undefined) {
      if (base !== undefined) baseRead = base;
      else {
        let stored = this.q.value.get(keyId, this.baseLanguageId);
        baseValue = stored?.value ?? null;
        if (!stored && this.syntax === "i18next") {
          // A form the base language lacks (`items_few` for English) compares with its `_other` form.
          const found = this.formOf(keyId);
          const other = found && this.q.keyNamed.get(found.projectId, found.form.other);
          stored = other ? this.q.value.get(other.id, this.baseLanguageId) : null;
        }
        baseRead = stored ? readMessage(stored.value, this.syntax) : null;
      }
    }
    const plurals = this.catalog.of(lang.code);
    let problems = checkMessage(value, readMessage(value, this.syntax), {
      syntax: this.syntax,
      languageName: lang.name,
      plurals,
      baseName: this.baseName(),
      base: baseRead,
    });
    if (this.syntax === "i18next" && plurals) {
      const formProblems = this.formFindings(keyId, languageId, lang.name, plurals);
      if (formProblems.length > 0) problems = [...problems, ...formProblems];
    }
    if (this.glossary && !this.isBase(languageId)) {
      if (baseValue === null && base !== undefined && this.baseLanguageId !== undefined) baseValue = this.q.value.get(keyId, this.baseLanguageId)?.value ?? null;
      const terms = baseValue === null ? [] : glossaryFindings(baseValue, value, lang.code, this.glossary);
      if (terms.length > 0) problems = [...problems, ...terms];
    }
    const { errors, warnings } = countBySeverity(problems);
    return { problems, errors, warnings };
  }

  /** The i18next plural form key `keyId` is, or null (docs/messages.md "i18next plural forms"). */
  private formOf(keyId: number): { form: PluralForm; projectId: number } | null {
    const row = this.q.keyName.get(keyId);
    const form = row ? pluralSuffix(row.key) : null;
    if (!row || !form || !this.q.keyNamed.get(row.projectId, form.other)) return null;
    return { form, projectId: row.projectId };
  }

  /**
   * `plural_category` warnings of an i18next value: a form the language does not use (`items_many`
   * in English), or, on the `_other` form, the forms of the language that have no value.
   */
  private formFindings(keyId: number, languageId: number, languageName: string, plurals: LanguagePlurals): MessageProblem[] {
    const found = this.formOf(keyId);
    if (!found) return [];
    const { form, projectId } = found;
    const rules = form.ordinal ? plurals.ordinal : plurals.cardinal;
    const kind = form.ordinal ? "ordinal forms" : "plural forms";
    if (!languageHasForm(form, plurals)) {
      return [{ code: "plural_category", severity: "warning", message: `${languageName} has no \`${form.category}\` ${form.ordinal ? "ordinal" : "plural"} form (it uses ${rules.categories.join(", ")}); this value is never shown` }];
    }
    if (form.category !== "other") return [];
    // A form no number below a million reaches (French `many`) is not needed (docs/messages.md "Plural categories").
    const missing = formsNeeded(form, plurals).filter((name) => {
      if (rules.rarelyReached(name.slice(name.lastIndexOf("_") + 1))) return false;
      const id = name === form.other ? keyId : this.q.keyNamed.get(projectId, name)?.id;
      return id === undefined || !this.q.value.get(id, languageId);
    });
    return missing.map((name) => ({ code: "plural_category", severity: "warning", message: `\`${name}\` has no ${languageName} value: ${languageName} ${kind} need ${rules.categories.join(", ")}; those numbers get the \`other\` text` }));
  }

  /** After a form's value changed: the findings of its group's `_other` form in that language, which list the forms it lacks. */
  private recheckOtherForm(keyId: number, languageId: number, now: number): void {
    const found = this.formOf(keyId);
    if (!found || found.form.category === "other") return;
    const other = this.q.keyNamed.get(found.projectId, found.form.other);
    const stored = other && this.q.value.get(other.id, languageId);
    if (other && stored) this.write(other.id, languageId, this.findings(other.id, languageId, stored.value), now);
  }

  /** Writes findings beside a value. Call inside the transaction that wrote the value. */
  write(keyId: number, languageId: number, findings: Findings, now: number): void {
    this.q.store.run(JSON.stringify(findings.problems), findings.errors, findings.warnings, now, keyId, languageId);
  }

  /**
   * Checks and writes a value just stored, and when it is the base language's, rechecks the key's
   * other translations against it (`previous`: the base value it replaced, null for none).
   * Returns the value's own findings.
   */
  store(keyId: number, languageId: number, value: string, now: number, previous?: string | null): Findings {
    const findings = this.findings(keyId, languageId, value);
    this.write(keyId, languageId, findings, now);
    if (this.isBase(languageId)) this.recheckOthers(keyId, value, now, previous);
    if (this.syntax === "i18next") this.recheckOtherForm(keyId, languageId, now);
    return findings;
  }

  /**
   * As `store`, for a value not stored yet: its findings are worked out first and `insertValue`
   * writes them with the value, one INSERT instead of an INSERT and an UPDATE. Not for i18next,
   * whose plural-form findings ask whether the value itself exists: there the value is inserted
   * first and checked as `store` does.
   */
  storeNew(keyId: number, languageId: number, value: string, now: number, insertValue: (findings: Findings | null) => void): Findings {
    if (this.syntax === "i18next") {
      insertValue(null);
      return this.store(keyId, languageId, value, now, null);
    }
    const findings = this.findings(keyId, languageId, value);
    insertValue(findings);
    if (this.isBase(languageId)) this.recheckOthers(keyId, value, now, null);
    return findings;
  }

  /**
   * As `store`, for a value replacing one already stored (`previous`): its findings are worked out
   * first and `writeValue` writes them with the value, one UPDATE of the row instead of two (a push
   * of 100,000 changed strings rewrote every row twice; docs/messages.md "When"). What the checks
   * read of the key's other values is the same before and after the write: the value exists either way.
   */
  storeReplacing(keyId: number, languageId: number, value: string, now: number, previous: string, writeValue: (findings: Findings) => void): Findings {
    const findings = this.findings(keyId, languageId, value);
    writeValue(findings);
    if (this.isBase(languageId)) this.recheckOthers(keyId, value, now, previous);
    if (this.syntax === "i18next") this.recheckOtherForm(keyId, languageId, now);
    return findings;
  }

  /** Whether two base texts hold the same glossary terms: the glossary's findings read nothing else of the base. */
  private sameTerms(a: string | null, b: string): boolean {
    if (!this.glossary) return true;
    const before = this.glossary.find(a ?? "");
    const after = this.glossary.find(b);
    return before.length === after.length && before.every((t, i) => t === after[i]);
  }

  /**
   * After the base value of a key changed: its other translations, checked against `baseValue`.
   * A translation's findings depend on its base value only through the base's placeholder names
   * (`baseShape`), so when `previous` (the base value replaced; null for none) has the same ones,
   * every finding stays as it is and nothing is read or written: a copy edit of 100,000 base
   * strings in 50 languages rechecks nothing instead of 4.9 million values (docs/messages.md "When").
   */
  recheckOthers(keyId: number, baseValue: string, now: number, previous?: string | null): void {
    if (this.baseLanguageId === undefined) return;
    const base = readMessage(baseValue, this.syntax);
    if (previous !== undefined && baseShape(base) === baseShape(previous === null ? null : readMessage(previous, this.syntax)) && this.sameTerms(previous, baseValue)) return;
    for (const other of this.q.otherLanguages.all(keyId, this.baseLanguageId)) {
      this.write(keyId, other.languageId, this.findings(keyId, other.languageId, other.value, base, baseValue), now);
    }
  }
}

/** Rows per chunk of a recheck: a few milliseconds of work between two chances for requests. */
export const RECHECK_CHUNK_ROWS = 500;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

function currentProject(db: Db, projectId: number): ProjectRow | undefined {
  return db.select().from(projects).where(eq(projects.id, projectId)).get();
}

/**
 * Marks every value of the project unchecked. Call inside the transaction that changed its base
 * language or message syntax: if the process stops before the recheck ends, the start-up pass
 * finishes it.
 */
export function markProjectUnchecked(db: Db, projectId: number): void {
  prepareCheckQueries(db).markProjectUnchecked.run(projectId);
}

/**
 * Checks the project's unchecked values, a chunk at a time, each chunk in its own transaction
 * with the project as it is then. Returns how many values it checked.
 */
export async function recheckProject(db: Db, now: () => number, projectId: number): Promise<number> {
  const q = prepareCheckQueries(db);
  let checked = 0;
  const project = currentProject(db, projectId);
  if (!project) return 0;
  for (const { id: languageId } of q.languages.all(projectId)) {
    let after = 0;
    for (;;) {
      const fresh = currentProject(db, projectId);
      if (!fresh) return checked;
      const rows = q.uncheckedOfLanguage.all(languageId, after, RECHECK_CHUNK_ROWS);
      if (rows.length === 0) break;
      const checks = new ProjectChecks(db, fresh);
      db.transaction(() => {
        const at = now();
        for (const row of rows) checks.write(row.keyId, languageId, checks.findings(row.keyId, languageId, row.value), at);
      });
      checked += rows.length;
      after = rows[rows.length - 1]!.rowid;
      await yieldToRequests();
    }
  }
  return checked;
}

/**
 * One pass over every unchecked value of every project, in rowid order, a chunk at a time (values
 * stored before the checks existed, or whose project's recheck a stop interrupted). `stopped` is
 * asked between chunks.
 */
export async function checkUncheckedValues(db: Db, now: () => number, stopped: () => boolean = () => false): Promise<number> {
  const q = prepareCheckQueries(db);
  let after = 0;
  let checked = 0;
  while (!stopped()) {
    const rows = q.uncheckedAnywhere.all(after, RECHECK_CHUNK_ROWS);
    if (rows.length === 0) break;
    const byProject = new Map<number, ProjectChecks | null>();
    db.transaction(() => {
      const at = now();
      for (const row of rows) {
        let checks = byProject.get(row.projectId);
        if (checks === undefined) {
          const project = currentProject(db, row.projectId);
          checks = project ? new ProjectChecks(db, project) : null;
          byProject.set(row.projectId, checks);
        }
        checks?.write(row.keyId, row.languageId, checks.findings(row.keyId, row.languageId, row.value), at);
      }
    });
    checked += rows.length;
    after = rows[rows.length - 1]!.rowid;
    await yieldToRequests();
  }
  return checked;
}

export interface UncheckedValuesPass {
  /** How many values the pass checked, once it ends. */
  done: Promise<number>;
  /** Ends the pass after its current chunk. */
  stop(): Promise<void>;
}

/**
 * Starts the pass over unchecked values on a later turn, so start-up and the first requests never
 * wait for it (docs/messages.md "After an upgrade").
 */
export function startUncheckedValuesPass(db: Db, now: () => number): UncheckedValuesPass {
  let stopped = false;
  const done = (async () => {
    await yieldToRequests();
    const checked = await checkUncheckedValues(db, now, () => stopped);
    if (checked > 0) log.info("message checks: checked values stored without findings", { values: checked });
    return checked;
  })().catch((err: unknown) => {
    log.error("message checks: the pass over unchecked values failed", { error: err instanceof Error ? err.message : String(err) });
    return 0;
  });
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
