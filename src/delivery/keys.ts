import { and, asc, desc, eq, notExists } from "drizzle-orm";
import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { iso, type Clock } from "../common/clock.ts";
import { notFound } from "../common/errors.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { projects, signingKeys, type ProjectRow, type SigningKeyRow } from "../storage/schema.ts";
import { bunHashes } from "./hashes.ts";
import { publicKeyOf, SEED_BYTES, signFile, type SecretKey } from "./protocol/crypto.ts";
import { currentKeyPathOf, keyComment, numberedKeyPathOf } from "./protocol/manifest.ts";
import { fromBase64, KEY_NUMBER_BYTES, keyIdOf, publicKeyFile, publicKeyLine, signatureFile, toBase64, type PublicKey } from "./protocol/minisign.ts";

/**
 * Each project's signing keys (docs/delivery.md "Signatures"): Ed25519, in minisign's formats,
 * numbered from 1, the highest the current one. A project gets its first key when it is made (an
 * older project at the start); a rotation adds the next, whose key file is signed by the one
 * before, so a client that trusts any key of the project can follow the chain to the current one.
 * The keys live in the database: backups and replicas carry them.
 */

export function publicKeyOfRow(row: Pick<SigningKeyRow, "keyId" | "publicKey">): PublicKey {
  return { keyNumber: fromBase64(row.keyId), publicKey: fromBase64(row.publicKey) };
}

export function secretKeyOfRow(row: Pick<SigningKeyRow, "keyId" | "secretKey">): SecretKey {
  return { keyNumber: fromBase64(row.keyId), seed: fromBase64(row.secretKey) };
}

/** `keys/{n}.pub` and `key.pub`: minisign's two-line public key file. */
export function keyFileOf(row: Pick<SigningKeyRow, "keyId" | "publicKey">): string {
  return publicKeyFile(publicKeyOfRow(row));
}

/** The untrusted comment of everything a key signs: which key, as minisign names it. */
export function untrustedCommentOf(keyNumber: Uint8Array): string {
  return `signature from phrasebook key ${keyIdOf(keyNumber)}`;
}

/**
 * Adds the project's key n (`previous`, key n-1, signs its key file), inside the caller's
 * transaction. Random key number and seed, from the system's generator.
 */
function insertKey(db: Db, projectId: number, n: number, previous: SigningKeyRow | undefined, now: number): SigningKeyRow {
  const seed = crypto.getRandomValues(new Uint8Array(SEED_BYTES));
  const keyNumber = crypto.getRandomValues(new Uint8Array(KEY_NUMBER_BYTES));
  const publicKey = publicKeyOf(seed);
  const file = publicKeyFile({ keyNumber, publicKey });
  let signature: string | null = null;
  if (previous) {
    const by = secretKeyOfRow(previous);
    signature = signatureFile(signFile(new TextEncoder().encode(file), keyComment(n), by, bunHashes), untrustedCommentOf(by.keyNumber));
  }
  return db
    .insert(signingKeys)
    .values({ projectId, n, keyId: toBase64(keyNumber), publicKey: toBase64(publicKey), secretKey: toBase64(seed), signature, createdAt: now })
    .returning()
    .get();
}

/** A new project's first key, in the transaction that makes the project. */
export function createFirstKey(db: Db, projectId: number, now: number): void {
  insertKey(db, projectId, 1, undefined, now);
}

/** Projects made before signing keys existed get their first one (at start). */
export function ensureSigningKeys(db: Db, clock: Clock): number {
  return db.transaction(
    (tx) => {
      const missing = tx
        .select({ id: projects.id })
        .from(projects)
        .where(notExists(tx.select({ n: signingKeys.n }).from(signingKeys).where(eq(signingKeys.projectId, projects.id))))
        .all();
      for (const p of missing) insertKey(tx as unknown as Db, p.id, 1, undefined, clock.now());
      return missing.length;
    },
    { behavior: "immediate" },
  );
}

export function currentKey(db: Db, projectId: number): SigningKeyRow | undefined {
  return db.select().from(signingKeys).where(eq(signingKeys.projectId, projectId)).orderBy(desc(signingKeys.n)).limit(1).get();
}

export function keyNumbered(db: Db, projectId: number, n: number): SigningKeyRow | undefined {
  return db.select().from(signingKeys).where(and(eq(signingKeys.projectId, projectId), eq(signingKeys.n, n))).get();
}

export interface SigningKeyView {
  n: number;
  /** minisign's key ID, 16 hex digits. */
  key_id: string;
  /** The key line an app or `phrasebook verify --public-key` is given. */
  public_key: string;
  /** The whole `key.pub` file. */
  key_file: string;
  created_at: string;
  /** Where the CDN serves the current key, and this key for good. */
  url: string;
  numbered_url: string;
}

function keyView(cdnUrl: string, project: ProjectRow, row: SigningKeyRow): SigningKeyView {
  const key = publicKeyOfRow(row);
  return {
    n: row.n,
    key_id: keyIdOf(key.keyNumber),
    public_key: publicKeyLine(key),
    key_file: publicKeyFile(key),
    created_at: iso(row.createdAt),
    url: `${cdnUrl}/${currentKeyPathOf(project.cdnSlug)}`,
    numbered_url: `${cdnUrl}/${numberedKeyPathOf(project.cdnSlug, row.n)}`,
  };
}

/** `GET /projects/:pid/signing-key`: the current key, and every earlier one (oldest first). */
export function signingKeyView(db: Db, cdnUrl: string, project: ProjectRow): SigningKeyView & { previous: SigningKeyView[] } {
  const rows = db.select().from(signingKeys).where(eq(signingKeys.projectId, project.id)).orderBy(asc(signingKeys.n)).all();
  const current = rows[rows.length - 1];
  if (!current) throw notFound("the project has no signing key yet");
  return { ...keyView(cdnUrl, project, current), previous: rows.slice(0, -1).map((r) => keyView(cdnUrl, project, r)) };
}

/**
 * `POST /projects/:pid/signing-key/rotate` (docs/delivery.md "Key rotation"): the next key, its
 * key file signed by the current one; `latest`'s and the channels' manifests are signed with it
 * from now on (the path record's `key_rotated` copies them elsewhere), pinned manifests keep the
 * key they were published with.
 */
export function rotateSigningKey({ db, clock, changes }: ServiceDeps, cdnUrl: string, project: ProjectRow, by: AuditBy = SYSTEM): SigningKeyView {
  const row = db.transaction(
    (tx) => {
      const previous = currentKey(tx as unknown as Db, project.id);
      const next = insertKey(tx as unknown as Db, project.id, (previous?.n ?? 0) + 1, previous, clock.now());
      changes.paths.keyRotated(project.id);
      recordAudit(db, clock, by, {
        // A project setting changed (the interface's list of actions holds no other name for it).
        action: "project_changed",
        target: { kind: "project", id: project.publicId, name: project.name },
        projectId: project.id,
        details: { signing_key: { from: previous?.n ?? null, to: next.n, key_id: keyIdOf(fromBase64(next.keyId)) } },
      });
      return next;
    },
    { behavior: "immediate" },
  );
  changes.notify(project.id);
  return keyView(cdnUrl, project, row);
}
