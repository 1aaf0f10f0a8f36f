import { languageHasForm, pluralFormIn, type PluralForm } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import type { Db } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
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
