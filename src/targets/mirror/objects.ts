import { surrogateKey } from "../../bundles/urls.ts";
import type { PathRecord } from "../../changes/paths.ts";
import { sha256Hex } from "../../common/hash.ts";
import type { PathOp, PutOp } from "../cdn-paths.ts";
import { pathOps } from "../cdn-paths.ts";
import type { RenderedObject } from "../render.ts";
import type { StoredObject } from "./bucket.ts";
import type { NewQueueRow } from "./queries.ts";

/**
 * What an object is in the mirror (docs/deploy.md "Object storage and CDN purge"): the CDN's
 * bytes, `Content-Type` and `Cache-Control`, plus the SHA-256 of the bytes as metadata, so a
 * later look (`mirror sync`, a full pass) tells a current object from a stale one without reading
 * it; with Fastly in front, the surrogate key the server's own CDN sends.
 */
export const SHA256_META = "sha256";
export const SURROGATE_KEY_META = "surrogate-key";

export function objectHeaders(path: string, object: RenderedObject, sha256: string, withSurrogateKey: boolean): Record<string, string> {
  const headers: Record<string, string> = { "content-type": object.contentType, "cache-control": object.cacheControl, [`x-amz-meta-${SHA256_META}`]: sha256 };
  const key = withSurrogateKey ? surrogateKey(path) : null;
  if (key) headers[`x-amz-meta-${SURROGATE_KEY_META}`] = key;
  return headers;
}

/** Whether the store holds exactly the object these headers describe. */
export function holds(stored: StoredObject | null, object: RenderedObject, headers: Record<string, string>): boolean {
  if (!stored) return false;
  return (
    stored.size === object.bytes.length &&
    stored.contentType === object.contentType &&
    stored.cacheControl === object.cacheControl &&
    stored.meta[SHA256_META] === headers[`x-amz-meta-${SHA256_META}`] &&
    (stored.meta[SURROGATE_KEY_META] ?? null) === (headers[`x-amz-meta-${SURROGATE_KEY_META}`] ?? null)
  );
}

export const sha256Of = (object: RenderedObject) => sha256Hex(object.bytes);

/**
 * How a put waits for others (the `level` of its row), so that an object comes only after what it
 * names (docs/deploy.md "Object storage and CDN purge"): a pinned bundle file and a key file name
 * nothing and wait for nothing (`key.pub` included: a client that reads it trusts it as it is); a
 * pinned manifest and its signature wait for the pinned files of their release and for the
 * project's key files (the key that signs it, for a client following the chain); a moving object
 * (`latest`, a channel, their manifests) for every pinned object of its release and the key files.
 * A delete waits for nothing but the earlier rows of its path: a rotated slug's old URLs go at once.
 */
export function levelOf(op: PathOp): number {
  if (op.op === "delete") return 0;
  const kind = op.source.kind;
  if (kind === "key" || kind === "key_signature") return 0;
  if (op.moving) return 2;
  return kind === "file" ? 0 : 1;
}

/**
 * The release an object is made from: a bundle file's, a manifest's (the release it describes).
 * "" for key files, which belong to the whole project: the project's objects above level 0 wait
 * for its key files that wait (queries.ts `ready`).
 */
export function releaseOf(op: PathOp): string {
  if (op.op === "delete") return "";
  const source = op.source;
  if (source.kind === "file") return source.release;
  if (source.kind === "manifest" || source.kind === "manifest_signature") return source.manifest.release;
  return "";
}

/** The queue rows of a change's path operations, in their order. */
export function queueRows(ops: PathOp[], changeId: number, projectId: number, now: number, checkFirst = false): NewQueueRow[] {
  return ops.map((op) => ({
    changeId,
    projectId,
    path: op.path,
    op: op.op,
    put: op.op === "put" ? JSON.stringify(op) : null,
    level: levelOf(op),
    release: releaseOf(op),
    checkFirst,
    nextAttemptAt: now,
    createdAt: now,
  }));
}

/**
 * Every object a project's CDN serves now, as puts in the order a copy must follow: the puts a
 * rotation of the project's slug would make (such a change carries, by construction, everything
 * the project serves), so whatever kinds of object `pathOps` knows are included.
 */
export function servedPuts(record: PathRecord, projectId: number, projectSlug: string): PutOp[] {
  const served = record.served(projectId);
  return pathOps({ kind: "slug_rotated", of: "project", project_slug: projectSlug, from: projectSlug, ...served }).filter((op): op is PutOp => op.op === "put");
}
