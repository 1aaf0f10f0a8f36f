import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, asc, eq } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import { invalidField, notFound } from "../common/errors.ts";
import { sha256Hex } from "../common/hash.ts";
import { newId, randomString } from "../common/ids.ts";
import { atLeastCharacters } from "../common/model.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { apiTokens, TOKEN_SCOPES, type ProjectRow, type TokenRow, type TokenScope } from "../storage/schema.ts";
import type { NewToken } from "./model.ts";
import { TOKEN_PREFIX, TOKEN_RANDOM_LENGTH } from "./format.ts";

/** API tokens (docs/interface.md §5, docs/product.md §2, §6): shaped as format.ts says, shown once, stored only as SHA-256. */
/** A token made without scopes reads the public API only, as every token did before scopes (docs/product.md §6). */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ["read"];

export interface TokenView {
  id: string;
  name: string;
  scopes: TokenScope[];
  created_at: string;
  last_used_at: string | null;
}

const tokenView = (t: TokenRow): TokenView => ({
  id: t.publicId,
  name: t.name,
  scopes: canonicalScopes(t.scopes),
  created_at: iso(t.createdAt),
  last_used_at: iso(t.lastUsedAt),
});

/** Scopes in the one order every answer uses (read, write, publish), each once. */
export function canonicalScopes(scopes: readonly string[]): TokenScope[] {
  return TOKEN_SCOPES.filter((s) => scopes.includes(s));
}

/** A non-empty subset of read, write and publish (docs/product.md §6); a repeated scope counts once. */
export function cleanScopes(raw: readonly string[] | undefined): TokenScope[] {
  if (raw === undefined) return [...DEFAULT_TOKEN_SCOPES];
  const unknown = raw.find((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) throw invalidField("scopes", `unknown scope "${unknown}" (the scopes are ${TOKEN_SCOPES.join(", ")})`);
  const scopes = canonicalScopes(raw);
  if (scopes.length === 0) throw invalidField("scopes", `must name at least one of ${TOKEN_SCOPES.join(", ")}`);
  return scopes;
}

export function listTokens(db: Db, project: ProjectRow): TokenView[] {
  return db.select().from(apiTokens).where(eq(apiTokens.projectId, project.id)).orderBy(asc(apiTokens.name), asc(apiTokens.id)).all().map(tokenView);
}

/** A new token, shown this once. The name's length is the route schema's to bound (model.ts NewToken). */
export function createToken({ db, clock }: ServiceDeps, project: ProjectRow, input: NewToken, by: AuditBy = SYSTEM): TokenView & { token: string } {
  const name = input.name.trim();
  if (!name) throw invalidField("name", atLeastCharacters(1));
  const scopes = cleanScopes(input.scopes);
  const token = TOKEN_PREFIX + randomString(TOKEN_RANDOM_LENGTH);
  const row = db.transaction(() => {
    const made = db
      .insert(apiTokens)
      .values({ publicId: newId("tok"), projectId: project.id, name, tokenHash: sha256Hex(token), scopes, createdAt: clock.now() })
      .returning()
      .get();
    // The token's name and scopes, never its value (docs/dashboard-api.md "Audit log").
    recordAudit(db, clock, by, { action: "token_created", target: { kind: "token", id: made.publicId, name: made.name }, projectId: project.id, details: { scopes } });
    return made;
  });
  const view = tokenView(row);
  return { id: view.id, name: view.name, scopes: view.scopes, token, created_at: view.created_at, last_used_at: null };
}

/**
 * Deleting a token revokes it at once: the change notice makes every verified-token memory forget
 * the project's tokens (public API and dashboard API alike), and purges the project's API answers,
 * which that token could still have read.
 */
export function deleteToken({ db, clock, changes }: ServiceDeps, project: ProjectRow, publicId: string, by: AuditBy = SYSTEM): void {
  db.transaction(() => {
    const gone = db
      .delete(apiTokens)
      .where(and(eq(apiTokens.projectId, project.id), eq(apiTokens.publicId, publicId)))
      .returning()
      .get();
    if (!gone) throw notFound("token not found");
    recordAudit(db, clock, by, { action: "token_deleted", target: { kind: "token", id: gone.publicId, name: gone.name }, projectId: project.id, details: { scopes: gone.scopes } });
  });
  changes.notify(project.id);
}
