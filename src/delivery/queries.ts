import { eq, notExists, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { projects, signingKeys } from "../storage/schema.ts";

/**
 * How many projects have no signing key yet (made before keys existed): asked at every start, so
 * the key code and its cryptography are loaded only when there is one (docs/architecture.md
 * "Loading only what is used").
 */
export function projectsWithoutSigningKey(db: Db): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(projects)
      .where(notExists(db.select({ n: signingKeys.n }).from(signingKeys).where(eq(signingKeys.projectId, projects.id))))
      .get()?.n ?? 0
  );
}
