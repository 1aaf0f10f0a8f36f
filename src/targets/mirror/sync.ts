import { PathRecord } from "../../changes/paths.ts";
import type { Clock } from "../../common/clock.ts";
import type { Settings } from "../../config/settings.ts";
import type { Db } from "../../storage/db.ts";
import type { PutOp } from "../cdn-paths.ts";
import type { ObjectRenderer } from "../render.ts";
import type { TargetFetch } from "../target.ts";
import { Bucket, StoreError } from "./bucket.ts";
import type { MirrorLocation } from "./location.ts";
import { holds, objectHeaders, servedPuts, sha256Of } from "./objects.ts";
import { prepareMirrorQueries } from "./queries.ts";

/** Requests `mirror sync` has under way at once. */
const AT_ONCE = 8;
/**
 * Passes before giving up. A pass that changed nothing proves the bucket is the CDN's; a server
 * publishing meanwhile may make one pass find more to do, never many.
 */
const PASSES_MAX = 5;

export interface SyncOutcome {
  /** Objects the CDN serves, looked at in the last pass. */
  objects: number;
  copied: number;
  deleted: number;
  /** Objects the CDN would not serve, left in place (`--no-delete`). */
  kept: number;
  /** One line per copy or deletion that failed. */
  failures: string[];
  /** False when the CDN kept changing for PASSES_MAX passes. */
  settled: boolean;
}

/** Runs `work` over `items`, AT_ONCE at a time. */
async function eachAtOnce<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(AT_ONCE, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * `phrasebook mirror sync` (docs/deploy.md "Object storage and CDN purge"): makes the bucket hold
 * exactly what the CDN serves, without the server's queue (an empty bucket, a bucket someone
 * changed, a mirror turned on later). Each pass reads what the database serves now, copies every
 * object the bucket lacks or holds otherwise (bytes, `Content-Type`, `Cache-Control`), and deletes
 * every key under the prefix that the CDN would answer 404 (unless `keepStray`). The server may run
 * meanwhile and publish: passes go on until one changes nothing, so nothing this wrote from an
 * older state is left behind.
 */
export async function syncMirror(
  context: { db: Db; clock: Clock; settings: Settings; renderer: ObjectRenderer; fetch: TargetFetch },
  location: MirrorLocation,
  options: { keepStray: boolean },
): Promise<SyncOutcome> {
  const bucket = new Bucket(location, context.fetch);
  const record = new PathRecord(context.db, context.clock);
  const q = prepareMirrorQueries(context.db);
  const withSurrogateKeys = context.settings.purge === "fastly";
  const under = location.prefix ? `${location.prefix}/` : "";
  const outcome: SyncOutcome = { objects: 0, copied: 0, deleted: 0, kept: 0, failures: [], settled: false };
  for (let pass = 0; pass < PASSES_MAX; pass++) {
    const expected = new Map<string, PutOp>();
    for (const project of q.projects()) for (const op of servedPuts(record, project.id, project.slug)) expected.set(op.path, op);
    const present = new Set<string>();
    for await (const key of bucket.list(under)) present.add(key.slice(under.length));
    let changed = 0;
    const failed = (what: string, path: string, err: unknown) => outcome.failures.push(`could not ${what} ${path}: ${err instanceof StoreError ? err.message : String(err)}`);
    await eachAtOnce([...expected.values()], async (op) => {
      try {
        const object = await context.renderer.render(op);
        if (object === null) return; // deleted since it was read: the next pass no longer expects it
        const sha256 = sha256Of(object);
        const headers = objectHeaders(op.path, object, sha256, withSurrogateKeys);
        const key = bucket.key(op.path);
        if (present.has(op.path) && holds(await bucket.head(key), object, headers)) return;
        await bucket.put(key, object.bytes, headers, sha256);
        changed++;
        outcome.copied++;
      } catch (err) {
        failed("copy", op.path, err);
      }
    });
    const stray = [...present].filter((path) => !expected.has(path));
    if (options.keepStray) outcome.kept = stray.length;
    else {
      await eachAtOnce(stray, async (path) => {
        try {
          await bucket.delete(bucket.key(path));
          changed++;
          outcome.deleted++;
        } catch (err) {
          failed("delete", path, err);
        }
      });
    }
    outcome.objects = expected.size;
    if (outcome.failures.length) return outcome;
    if (changed === 0) {
      outcome.settled = true;
      return outcome;
    }
  }
  return outcome;
}
