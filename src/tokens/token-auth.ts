import { sha256Hex, timingSafeEqualStrings } from "../common/hash.ts";
import { TOKEN_PREFIX, TOKEN_RANDOM_LENGTH } from "./tokens.ts";
import type { Db } from "../storage/db.ts";
import { prepareTokenQueries, type TokenQueries } from "./queries.ts";

/** Who is asking: the token's row and its project (docs/interface.md §5 rule 3: one project per token). */
export interface Caller {
  tokenId: number;
  projectId: number;
}

export type AuthOutcome = { kind: "ok"; caller: Caller } | { kind: "missing" } | { kind: "invalid" };

/** How long a verified token is trusted from memory before the database is asked again. */
export const TOKEN_RECHECK_MS = 60_000;
/** `last_used_at` is written at most this often per token: never a database write per request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_RANDOM_LENGTH}}$`);

/** The token of `Bearer <token>` (RFC 6750; the scheme in any letter case), or null. */
export function bearerToken(authorization: string): string | null {
  if (authorization.startsWith("Bearer ")) {
    const exact = authorization.slice(7); // the usual form, checked without further copies
    if (TOKEN_SHAPE.test(exact)) return exact;
  }
  if (authorization.length < 7 || authorization.slice(0, 7).toLowerCase() !== "bearer ") return null;
  const token = authorization.slice(7).trim();
  return TOKEN_SHAPE.test(token) ? token : null;
}

interface Known extends Caller {
  checkedAtMs: number;
  lastUsedWrittenAtMs: number;
}

/**
 * Bearer token authentication (docs/interface.md §5, docs/product.md §2). Tokens are stored only as
 * SHA-256 hex; we find the row by the hash of what was presented (so lookup timing can only ever
 * tell something about a hash, never about a token) and then compare the stored hash in constant
 * time. A token issued by another deployment is simply not in this database. Verified tokens are
 * remembered for TOKEN_RECHECK_MS, and forgotten at once when their project changes (deleting a
 * token notifies the project's change listeners).
 */
export class TokenAuth {
  private readonly known = new Map<string, Known>();
  private readonly queries: TokenQueries;

  constructor(db: Db) {
    this.queries = prepareTokenQueries(db);
  }

  authenticate(authorization: string | null, nowMs: number): AuthOutcome {
    if (authorization === null) return { kind: "missing" };
    const token = bearerToken(authorization);
    if (token === null) return { kind: "invalid" };
    const hash = sha256Hex(token);

    let entry = this.known.get(hash);
    if (entry && nowMs - entry.checkedAtMs >= TOKEN_RECHECK_MS) {
      this.known.delete(hash);
      entry = undefined;
    }
    if (!entry) {
      const row = this.queries.byHash.get(hash);
      if (!row || !timingSafeEqualStrings(row.token_hash, hash)) return { kind: "invalid" };
      entry = { tokenId: row.id, projectId: row.project_id, checkedAtMs: nowMs, lastUsedWrittenAtMs: 0 };
      this.known.set(hash, entry);
    }
    // A remembered entry was found by its key, which is this very hash: nothing left to compare.

    if (nowMs - entry.lastUsedWrittenAtMs >= LAST_USED_WRITE_INTERVAL_MS) {
      entry.lastUsedWrittenAtMs = nowMs;
      this.queries.touch.run(nowMs, entry.tokenId);
    }
    return { kind: "ok", caller: { tokenId: entry.tokenId, projectId: entry.projectId } };
  }

  /** A project changed (perhaps a token was deleted): verify its tokens again on next use. */
  forgetProject(projectId: number): void {
    for (const [hash, entry] of this.known) if (entry.projectId === projectId) this.known.delete(hash);
  }
}
