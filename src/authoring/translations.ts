import { and, eq } from "drizzle-orm";
import type { Actor } from "../changes/actor.ts";
import { notFound } from "../common/errors.ts";
import type { ServiceDeps } from "../deps.ts";
import type { MessageProblem } from "../messages/check.ts";
import { translations, type ProjectRow } from "../storage/schema.ts";
import { ProjectChecks } from "./checks.ts";
import { recordHistory } from "./history.ts";
import { checkValue, findKey, type TranslationStatus } from "./keys.ts";
import { findLanguage } from "./languages.ts";
import type { TranslationValue } from "./model.ts";

export interface TranslationView {
  key: string;
  language_code: string;
  value: string;
  status: TranslationStatus;
  /** What the message checks found in the value (docs/product.md §7). */
  problems: MessageProblem[];
}

/** A translation event's data: exactly interface.md §6.2's fields, never the findings. */
const eventData = (v: TranslationView) => ({ key: v.key, language_code: v.language_code, value: v.value, status: v.status });

/**
 * Sets a translation. The first value emits translation_created, a changed one
 * translation_updated and resets `approved` to `translated` (docs/product.md §4); either is a
 * history entry by `actor`. The value's message-check findings are written with it, and a new
 * base-language value rechecks the key's other translations (docs/product.md §7). Saving the
 * identical value again changes nothing and emits nothing, so an editor that saves on blur cannot
 * undo an approval by accident. The value's length is the route's schema's to bound
 * (model.ts TranslationValue).
 */
export function setTranslation(
  { db, clock, changes }: ServiceDeps,
  project: ProjectRow,
  keyPublicId: string,
  code: string | null,
  value: TranslationValue["value"],
  actor: Actor,
): TranslationView {
  const k = findKey(db, project, keyPublicId);
  checkValue(value, k.key);
  const lang = findLanguage(db, project, code);
  const existing = db
    .select()
    .from(translations)
    .where(and(eq(translations.keyId, k.id), eq(translations.languageId, lang.id)))
    .get();
  if (existing && existing.value === value) return { key: k.key, language_code: lang.code, value, status: existing.status, problems: existing.problems };
  const checks = new ProjectChecks(db, project);
  const { problems, errors, warnings } = checks.findings(k.id, lang.id, value);
  const view: TranslationView = { key: k.key, language_code: lang.code, value, status: "translated", problems };
  const now = clock.now();
  db.transaction((tx) => {
    const row = { value, status: "translated" as const, updatedAt: now, problems, errorCount: errors, warningCount: warnings, checkedAt: now };
    tx.insert(translations)
      .values({ keyId: k.id, languageId: lang.id, ...row })
      .onConflictDoUpdate({ target: [translations.keyId, translations.languageId], set: row })
      .run();
    if (checks.isBase(lang.id)) checks.recheckOthers(k.id, value, now, existing?.value ?? null);
    recordHistory(db, { keyId: k.id, languageId: lang.id, value, previousValue: existing?.value ?? null, status: "translated", via: "edit", at: now }, actor);
    changes.event(project, existing ? "translation_updated" : "translation_created", eventData(view));
  });
  return view;
}

/** Marks a translation approved (docs/product.md §4): translation_approved and a history entry. */
export function approveTranslation(
  { db, clock, changes }: ServiceDeps,
  project: ProjectRow,
  keyPublicId: string,
  code: string | null,
  actor: Actor,
): TranslationView {
  const k = findKey(db, project, keyPublicId);
  const lang = findLanguage(db, project, code);
  const existing = db
    .select()
    .from(translations)
    .where(and(eq(translations.keyId, k.id), eq(translations.languageId, lang.id)))
    .get();
  if (!existing) throw notFound(`key "${k.key}" has no ${lang.code} translation to approve`);
  const view: TranslationView = { key: k.key, language_code: lang.code, value: existing.value, status: "approved", problems: existing.problems };
  if (existing.status === "approved") return view;
  const now = clock.now();
  db.transaction((tx) => {
    tx.update(translations)
      .set({ status: "approved", updatedAt: now })
      .where(and(eq(translations.keyId, k.id), eq(translations.languageId, lang.id)))
      .run();
    recordHistory(db, { keyId: k.id, languageId: lang.id, value: existing.value, previousValue: existing.value, status: "approved", via: "approve", at: now }, actor);
    changes.event(project, "translation_approved", eventData(view));
  });
  return view;
}
