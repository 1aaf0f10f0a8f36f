import { and, eq, inArray } from "drizzle-orm";
import { languageHasForm, pluralFormIn, pluralSuffix, type PluralForm } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import type { Db } from "../storage/db.ts";
import { languages, translationKeys, translations, type ProjectRow } from "../storage/schema.ts";
import { pluralSuffixKeys } from "./queries.ts";

/**
 * The i18next plural forms of one project (docs/messages.md "i18next plural forms"): which keys are
 * forms, and which of them a language does not use, so progress, the missing filter and
 * `delete_missing` leave them out for it. Read from the key names in one pass over the keys that
 * end in a plural suffix; empty for a project in any other syntax.
 */
export class ProjectPluralForms {
  /** Each form's key id, with its form. */
  readonly forms = new Map<number, { key: string; form: PluralForm }>();
  private readonly catalog = new PluralCatalog();
  private readonly unusedByCode = new Map<string, number[]>();

  constructor(db: Db, project: Pick<ProjectRow, "id" | "messageSyntax">) {
    if (project.messageSyntax !== "i18next") return;
    const rows = pluralSuffixKeys(db, project.id);
    const names = new Set(rows.map((r) => r.key));
    for (const r of rows) {
      const form = pluralFormIn(r.key, names);
      if (form) this.forms.set(r.id, { key: r.key, form });
    }
  }

  /** The ids of the form keys language `code` does not use (`items_many` in English). */
  unusedIn(code: string): number[] {
    let ids = this.unusedByCode.get(code);
    if (!ids) {
      const plurals = this.catalog.of(code);
      ids = [];
      for (const [id, { form }] of this.forms) if (!languageHasForm(form, plurals)) ids.push(id);
      this.unusedByCode.set(code, ids);
    }
    return ids;
  }

  /** Whether key `keyId` is a form language `code` does not use. */
  isUnusedIn(keyId: number, code: string): boolean {
    const entry = this.forms.get(keyId);
    return entry !== undefined && !languageHasForm(entry.form, this.catalog.of(code));
  }
}

/** The base text a plural form translates when the base language lacks the form: its group's `_other` form's. */
export interface BaseForm {
  /** The `_other` form's key (`items_other`). */
  key: string;
  value: string;
}

/**
 * In an `i18next` project, a form the base language does not have (`items_few` in an English-based
 * project) has no base value: what it translates is its group's `_other` form (docs/messages.md
 * "i18next plural forms"), as the message checks already compare it. For each of `keys` that is
 * such a form, has no base value, and whose `_other` form has one: that form and value, by the
 * form's key name. One query for all of them; empty in any other syntax.
 */
export function baseFormsOf(db: Db, project: Pick<ProjectRow, "id" | "messageSyntax" | "baseLanguageCode">, keys: readonly string[]): Map<string, BaseForm> {
  const out = new Map<string, BaseForm>();
  if (project.messageSyntax !== "i18next") return out;
  const otherOf = new Map<string, string>();
  for (const key of keys) {
    const form = pluralSuffix(key);
    if (form && form.other !== key) otherOf.set(key, form.other);
  }
  if (otherOf.size === 0) return out;
  const named = [...new Set([...otherOf.keys(), ...otherOf.values()])];
  const bases = new Map(
    db
      .select({ key: translationKeys.key, value: translations.value })
      .from(translationKeys)
      .innerJoin(translations, eq(translations.keyId, translationKeys.id))
      .innerJoin(languages, eq(languages.id, translations.languageId))
      .where(and(eq(translationKeys.projectId, project.id), inArray(translationKeys.key, named), eq(languages.projectId, project.id), eq(languages.code, project.baseLanguageCode)))
      .all()
      .map((r) => [r.key, r.value]),
  );
  for (const [key, other] of otherOf) {
    const value = bases.get(other);
    if (!bases.has(key) && value !== undefined) out.set(key, { key: other, value });
  }
  return out;
}
