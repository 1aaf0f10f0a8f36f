/**
 * The mirror's tests share these steps (docs/deploy.md "Object storage and CDN purge"): settings
 * for a mirror in s3rver, waiting until the mirror has copied everything recorded, the paths the
 * CDN serves (from the dashboard API and the CDN itself), and the walk that holds the bucket to
 * the CDN path by path: the same paths, and for each the same bytes, Content-Type and
 * Cache-Control.
 */
import { expect } from "bun:test";
import { RETRY_MAX_MS } from "../../src/targets/follower.ts";
import type { DashboardClient } from "./dashboard-client.ts";
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, type S3Server } from "./s3.ts";
import { eventually } from "./wait.ts";

export const BUCKET = "cdn";

export function mirrorEnv(s3: S3Server, prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PHRASEBOOK_S3_ENDPOINT: s3.endpoint,
    PHRASEBOOK_S3_BUCKET: BUCKET,
    PHRASEBOOK_S3_REGION: S3_REGION,
    PHRASEBOOK_S3_PREFIX: prefix,
    PHRASEBOOK_S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
    PHRASEBOOK_S3_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY,
    ...extra,
  };
}

type Query = <T>(sql: string) => T[];

/** Whether the mirror has queued every recorded change and copied every queued object. */
export function mirrorIdle(query: Query): boolean {
  const last = query<{ id: number | null }>("SELECT max(id) AS id FROM path_changes")[0]?.id ?? 0;
  const cursor = query<{ id: number }>("SELECT last_change_id AS id FROM publish_target_cursors WHERE target = 'mirror'")[0]?.id ?? -1;
  const waiting = query<{ n: number }>("SELECT count(*) AS n FROM mirror_queue WHERE done = 0")[0]!.n;
  return cursor >= last && waiting === 0;
}

/**
 * Waits until the mirror is idle. With the app on a test's clock (`clock`), that clock is moved
 * past the retry of any failed copy: s3rver's file store now and then fails a removal when several
 * objects of one folder go at once (it removes emptied folders as it goes), and the retry takes it.
 */
export function mirrored(query: Query, clock?: { advance(ms: number): void }, timeoutMs = 20_000): Promise<unknown> {
  return eventually(
    () => {
      if (clock && query<{ n: number }>("SELECT count(*) AS n FROM mirror_queue WHERE done = 0 AND attempts > 0")[0]!.n > 0) clock.advance(RETRY_MAX_MS);
      return mirrorIdle(query);
    },
    { timeoutMs, what: "the mirror copying everything recorded" },
  );
}

/**
 * Every path the CDN serves now for a project: each published release's files (its
 * `download_urls`), each channel's, and each `latest` path that answers 200; each of those places
 * with its manifest and signature (docs/delivery.md); and the project's key files once it has
 * published (a copy gets them with the first publish and keeps them: `everPublished` says so
 * after every release was deleted).
 */
export async function servedPaths(admin: DashboardClient, pid: string, cdnAnswer: (path: string) => Promise<Response>, options: { everPublished?: boolean } = {}): Promise<string[]> {
  const out = new Set<string>();
  const latest = new Set<string>();
  const relative = (url: string) => url.slice(url.indexOf("/p/") + 1);
  const withManifest = (dir: string) => [`${dir}/manifest.json`, `${dir}/manifest.json.minisig`].forEach((p) => out.add(p));
  const slug = (await admin.get(`/projects/${pid}`)).body.cdn_slug;
  const published = (await admin.get(`/projects/${pid}/releases`)).body.items.filter((r: any) => r.status === "published");
  for (const r of published) {
    const detail = (await admin.get(`/projects/${pid}/releases/${r.id}`)).body;
    for (const l of detail.languages) {
      for (const u of Object.values(l.download_urls) as string[]) {
        out.add(relative(u));
        latest.add(relative(u).replace(/\/r\/[0-9A-Za-z]{16}\//, "/r/latest/"));
      }
    }
    withManifest(`p/${slug}/r/${detail.slug}`);
  }
  for (const path of latest) {
    const res = await cdnAnswer(path);
    await res.arrayBuffer();
    if (res.status === 200) out.add(path);
  }
  if (published.length > 0) withManifest(`p/${slug}/r/latest`);
  for (const c of (await admin.get(`/projects/${pid}/channels`)).body.items) {
    for (const byFormat of Object.values(c.urls) as Record<string, string>[]) for (const u of Object.values(byFormat)) out.add(relative(u));
    withManifest(`p/${slug}/c/${c.slug}`);
  }
  if (published.length > 0 || options.everPublished) {
    const key = (await admin.get(`/projects/${pid}/signing-key`)).body;
    out.add(`p/${slug}/key.pub`);
    for (let n = 1; n <= key.n; n++) {
      out.add(`p/${slug}/keys/${n}.pub`);
      if (n >= 2) out.add(`p/${slug}/keys/${n}.pub.minisig`);
    }
  }
  return [...out].sort();
}

/** The CDN paths the bucket holds under the prefix. */
export async function bucketPaths(s3: S3Server, prefix: string): Promise<string[]> {
  const client = s3.client(BUCKET);
  const under = prefix ? `${prefix}/` : "";
  const out: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await client.list({ prefix: under, continuationToken });
    for (const c of page.contents ?? []) out.push(c.key.slice(under.length));
    continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (continuationToken);
  return out.sort();
}

/** An object as the bucket answers it (a presigned GET: nothing of ours reads it). */
export async function bucketObject(s3: S3Server, key: string): Promise<{ status: number; body: Uint8Array; contentType: string | null; cacheControl: string | null; headers: Headers }> {
  const res = await fetch(s3.client(BUCKET).presign(key));
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get("content-type"), cacheControl: res.headers.get("cache-control"), headers: res.headers };
}

/**
 * The walk: the bucket holds exactly `paths` under the prefix, each with the bytes, Content-Type
 * and Cache-Control the CDN answers for it (uncompressed).
 */
export async function expectBucketIsCdn(s3: S3Server, prefix: string, paths: string[], cdnAnswer: (path: string) => Promise<Response>): Promise<void> {
  expect(await bucketPaths(s3, prefix)).toEqual([...paths].sort());
  for (const path of paths) {
    const cdn = await cdnAnswer(path);
    const cdnBody = new Uint8Array(await cdn.arrayBuffer());
    const stored = await bucketObject(s3, prefix ? `${prefix}/${path}` : path);
    expect({ path, status: cdn.status, contentType: stored.contentType, cacheControl: stored.cacheControl }).toEqual({
      path,
      status: 200,
      contentType: cdn.headers.get("content-type"),
      cacheControl: cdn.headers.get("cache-control"),
    });
    expect(Buffer.from(stored.body).equals(Buffer.from(cdnBody))).toBe(true);
  }
}
