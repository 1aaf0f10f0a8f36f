import { sha256Hex, timingSafeEqualStrings } from "../common/hash.ts";
import type { Db } from "../storage/db.ts";
import type { TokenScope } from "../storage/schema.ts";
import { prepareTokenQueries, type TokenQueries } from "./queries.ts";
import { TOKEN_SHAPE } from "./format.ts";
import { canonicalScopes } from "./tokens.ts";

/** Who is asking: the token and its project (docs/interface.md §5 rule 3: one project per token). */
export interface Caller {
  tokenId: number;
  projectId: number;
  /** The token's public id and name, which the history records for its changes (docs/product.md §8). */
  publicId: string;
  name: string;
  scopes: readonly TokenScope[];
}

/**
 * `lacks-scope`: a live token without the scope this reader requires (a write-only token on the
 * public API, docs/product.md §6). It carries no caller on purpose, so no code can serve it by
 * mistake.
 */
export type AuthOutcome = { kind: "ok"; caller: Caller } | { kind: "missing" } | { kind: "invalid" } | { kind: "lacks-scope"; scope: TokenScope };

/** How long a verified token is trusted from memory before the database is asked again. */
export const TOKEN_RECHECK_MS = 60_000;
/** `last_used_at` is written at most this often per token: never a database write per request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;


/** Whether an Authorization header uses the Bearer scheme (RFC 6750; the scheme in any letter case). */
export function isBearer(authorization: string): boolean {
  return authorization.length >= 7 && authorization.slice(0, 7).toLowerCase() === "bearer ";
}

/** The token of `Bearer <token>` (RFC 6750; the scheme in any letter case), or null. */
export function bearerToken(authorization: string): string | null {
  if (authorization.startsWith("Bearer ")) {
    const exact = authorization.slice(7); // the usual form, checked without further copies
    if (TOKEN_SHAPE.test(exact)) return exact;
  }
  if (!isBearer(authorization)) return null;
  const token = authorization.slice(7).trim();
  return TOKEN_SHAPE.test(token) ? token : null;
}

interface Known extends Caller {
  checkedAtMs: number;
  lastUsedWrittenAtMs: number;
}

function parseScopes(json: string): TokenScope[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? canonicalScopes(value.filter((s): s is string => typeof s === "string")) : [];
  } catch {
    return []; // an unreadable value grants nothing
  }
}

/**
 * Bearer token authentication (docs/interface.md §5, docs/product.md §2, §6). Tokens are stored only
 * as SHA-256 hex; we find the row by the hash of what was presented (so lookup timing can only ever
 * tell something about a hash, never about a token) and then compare the stored hash in constant
 * time. A token issued by another deployment is simply not in this database. Verified tokens are
 * remembered for TOKEN_RECHECK_MS, and forgotten at once when their project changes (deleting a
 * token notifies the project's change listeners, which call `forgetProject`).
 *
 * `requiredScope`: a reader that serves only tokens with that scope (the public API requires
 * `read`); without it every live token is a caller and the route decides (the dashboard API).
 */
export class TokenAuth {
  private readonly known = new Map<string, Known>();
  private readonly queries: TokenQueries;

  constructor(
    db: Db,
    private readonly requiredScope?: TokenScope,
  ) {
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
      if (!row || !timingSafeEqualStrings(row.tokenHash, hash)) return { kind: "invalid" };
      entry = {
        tokenId: row.id,
        projectId: row.projectId,
        publicId: row.publicId,
        name: row.name,
        scopes: parseScopes(row.scopes),
        checkedAtMs: nowMs,
        lastUsedWrittenAtMs: 0,
      };
      this.known.set(hash, entry);
    }
    // A remembered entry was found by its key, which is this very hash: nothing left to compare.

    if (this.requiredScope !== undefined && !entry.scopes.includes(this.requiredScope)) return { kind: "lacks-scope", scope: this.requiredScope };
    if (nowMs - entry.lastUsedWrittenAtMs >= LAST_USED_WRITE_INTERVAL_MS && this.queries.touch(nowMs, entry.tokenId, LAST_USED_WRITE_INTERVAL_MS)) {
      entry.lastUsedWrittenAtMs = nowMs;
    }
    return { kind: "ok", caller: entry };
  }

  /** A project changed (perhaps a token was deleted): verify its tokens again on next use. */
  forgetProject(projectId: number): void {
    for (const [hash, entry] of this.known) if (entry.projectId === projectId) this.known.delete(hash);
  }
}
