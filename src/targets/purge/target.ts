import type { RecordedPathChange } from "../../changes/paths.ts";
import { sha256Hex } from "../../common/hash.ts";
import type { Db } from "../../storage/db.ts";
import { pathOps } from "../cdn-paths.ts";
import type { ObjectRenderer } from "../render.ts";
import type { PublishTarget, PublishTargetKind, TargetContext } from "../target.ts";
import { PurgeQueue } from "./queue.ts";
import { purgeApi } from "./registry.ts";

/** The purge queue the settings ask for (PHRASEBOOK_PURGE), or none. */
export function purgeQueueFor({ settings, db, fetch, clock }: TargetContext): PurgeQueue | undefined {
  const api = purgeApi(settings.purge);
  return api && new PurgeQueue(db, api, settings, fetch, clock);
}

/**
 * Purges without a mirror (docs/deploy.md "Object storage and CDN purge"): the CDN in front pulls
 * from this server, which serves a change the moment it commits, so the purge follows the path
 * record directly. Each change's `latest`, channel and manifest paths whose content changed (made
 * by the renderer and compared with what was last purged), and those that went away, are queued.
 * With a mirror, the mirror purges instead, once the bucket holds the change (mirror/copier.ts).
 */
export class PurgeTarget implements PublishTarget {
  readonly name = "purge";

  constructor(
    private readonly db: Db,
    private readonly renderer: ObjectRenderer,
    readonly queue: PurgeQueue,
  ) {}

  async replay({ change }: RecordedPathChange): Promise<void> {
    const seen: { path: string; sha256: string | null; moving: boolean }[] = [];
    for (const op of pathOps(change)) {
      if (op.op === "delete") seen.push({ path: op.path, sha256: null, moving: false });
      else if (op.moving) {
        const object = await this.renderer.render(op);
        // Gone since (a later change of the record removes the path and purges it then).
        if (object) seen.push({ path: op.path, sha256: sha256Hex(object.bytes), moving: true });
      }
    }
    this.db.transaction(() => {
      const changed = seen.filter((s) => this.queue.changed(s.path, s.sha256, s.moving)).map((s) => s.path);
      if (changed.length) this.queue.enqueue(changed);
    });
    this.queue.kick();
  }

  start(): void {
    this.queue.start();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

export const purge: PublishTargetKind = {
  name: "purge",
  make: (context) => {
    // With a mirror, the mirror purges once the bucket holds a change.
    if (context.settings.s3Bucket) return undefined;
    const queue = purgeQueueFor(context);
    return queue && new PurgeTarget(context.db, context.renderer, queue);
  },
};
