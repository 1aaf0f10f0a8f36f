import { and, desc, eq } from "drizzle-orm";
import type { Actor } from "../changes/actor.ts";
import { iso } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { languages, translationHistory, type HistoryRow, type ProjectRow } from "../storage/schema.ts";
import { findKey } from "./keys.ts";

/** A change of a translation, as `GET /projects/:pid/keys/:keyId/history` lists it (docs/product.md §8). */
export interface HistoryView {
  language_code: string;
  value: string;
  previous_value: string | null;
  status: "translated" | "approved";
  by: { kind: "user" | "token"; id: string; name: string };
  via: "edit" | "import" | "approve";
  at: string;
}

export type HistoryEntry = Pick<HistoryRow, "keyId" | "languageId" | "value" | "previousValue" | "status" | "via" | "at">;

/** Writes one entry; call it inside the transaction of the change it records. */
export function recordHistory(db: Db, entry: HistoryEntry, actor: Actor): void {
  db.insert(translationHistory)
    .values({ ...entry, byKind: actor.kind, byPublicId: actor.publicId, byName: actor.name })
    .run();
}

/** Every change of the key's translations, newest first. */
export function keyHistory(db: Db, project: ProjectRow, keyPublicId: string): HistoryView[] {
  const key = findKey(db, project, keyPublicId);
  return db
    .select({ h: translationHistory, code: languages.code })
    .from(translationHistory)
    .innerJoin(languages, eq(languages.id, translationHistory.languageId))
    .where(and(eq(translationHistory.keyId, key.id), eq(languages.projectId, project.id)))
    .orderBy(desc(translationHistory.id))
    .all()
    .map(({ h, code }) => ({
      language_code: code,
      value: h.value,
      previous_value: h.previousValue,
      status: h.status,
      by: { kind: h.byKind, id: h.byPublicId, name: h.byName },
      via: h.via,
      at: iso(h.at),
    }));
}
