import { and, desc, eq } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import { notFound } from "../common/errors.ts";
import type { Db } from "../storage/db.ts";
import { memoryImports, type MemoryImportRow, type ProjectRow } from "../storage/schema.ts";

/** The memories imported into a project (docs/translators.md "TMX"), newest first, and their removal. */
export interface MemoryImportView {
  id: string;
  name: string;
  source_language: string;
  units: number;
  by: { kind: "user" | "token"; id: string; name: string };
  created_at: string;
}

function importView(row: MemoryImportRow): MemoryImportView {
  return { id: row.publicId, name: row.name, source_language: row.sourceLanguage, units: row.units, by: { kind: row.byKind, id: row.byPublicId, name: row.byName }, created_at: iso(row.createdAt) };
}

export function listMemoryImports(db: Db, project: ProjectRow): { items: MemoryImportView[] } {
  return { items: db.select().from(memoryImports).where(eq(memoryImports.projectId, project.id)).orderBy(desc(memoryImports.id)).all().map(importView) };
}

/** Deletes an imported memory and its units (their rows leave the index with them). */
export function deleteMemoryImport(db: Db, project: ProjectRow, publicId: string): void {
  const row = db.select({ id: memoryImports.id }).from(memoryImports).where(and(eq(memoryImports.projectId, project.id), eq(memoryImports.publicId, publicId))).get();
  if (!row) throw notFound("imported memory not found");
  db.transaction(() => db.delete(memoryImports).where(eq(memoryImports.id, row.id)).run());
}
