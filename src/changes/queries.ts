import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { channels, pathChanges, projects, releaseLanguages, releases, signingKeys, type PathChangeRow } from "../storage/schema.ts";
import type { Db } from "../storage/db.ts";
import { named } from "../storage/names.ts";
import { outboxEvents, webhookEndpoints } from "../storage/schema.ts";

const o = named(outboxEvents);
const e = named(webhookEndpoints);

/** The outbox's statements, prepared once per connection (docs/architecture.md "Reaching SQLite"). */
export function prepareChangeQueries(db: Db) {
  return {
    insertEvent: db.$client.prepare<unknown, [number, string, string, number]>(
      `INSERT INTO ${o} (${o.projectId}, ${o.event}, ${o.payload}, ${o.createdAt}) VALUES (?, ?, ?, ?)`,
    ),
    /**
     * Whether an enabled endpoint of the project subscribes to the event (its JSON string, quotes
     * included, found in the endpoint's list of names): an event nobody takes is not written
     * (docs/webhooks.md "Events nobody subscribes to"). A project has a few endpoints, found by
     * their project index. `instr` rather than `json_each`: the latter cost ten times more per call
     * even with no endpoint, and an import asks once per value.
     */
    subscribed: db.$client.prepare<{ yes: number }, [number, string]>(
      `SELECT 1 AS yes FROM ${e} WHERE ${e.projectId} = ? AND ${e.enabled} = 1 AND instr(${e.events}, ?) > 0 LIMIT 1`,
    ),
  };
}

export type ChangeQueries = ReturnType<typeof prepareChangeQueries>;

/**
 * The path record's reads and writes (changes/paths.ts). None is on a request's hot path: each
 * runs once per publish, move, rotation or deletion, or per batch a publish target replays.
 */
export function preparePathQueries(db: Db) {
  const published = and(eq(releases.projectId, sql.placeholder("projectId")), eq(releases.status, "published"));
  return {
    insert: {
      run: (projectId: number, sequence: number, kind: PathChangeRow["kind"], change: string, at: number) =>
        db.insert(pathChanges).values({ projectId, sequence, kind, change, at }).run(),
    },
    lastSequence: db.select({ sequence: pathChanges.sequence }).from(pathChanges).where(eq(pathChanges.projectId, sql.placeholder("projectId"))).orderBy(desc(pathChanges.sequence)).limit(1).prepare(),
    lastOfKind: db
      .select({ change: pathChanges.change })
      .from(pathChanges)
      .where(and(eq(pathChanges.projectId, sql.placeholder("projectId")), eq(pathChanges.kind, sql.placeholder("kind"))))
      .orderBy(desc(pathChanges.id))
      .limit(1)
      .prepare(),
    latestRelease: db.select({ id: releases.id, publicId: releases.publicId }).from(releases).where(published).orderBy(desc(releases.publishedAt), desc(releases.id)).limit(1).prepare(),
    publishedReleases: db.select({ id: releases.id }).from(releases).where(published).orderBy(asc(releases.publishedAt), asc(releases.id)).prepare(),
    release: db.select({ publicId: releases.publicId, slug: releases.slug, formats: releases.formats }).from(releases).where(eq(releases.id, sql.placeholder("releaseId"))).prepare(),
    languages: db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, sql.placeholder("releaseId"))).orderBy(asc(releaseLanguages.code)).prepare(),
    channels: db.select({ name: channels.name, slug: channels.slug, releaseId: channels.releaseId }).from(channels).where(eq(channels.projectId, sql.placeholder("projectId"))).orderBy(asc(channels.name)).prepare(),
    projectSlug: db.select({ cdnSlug: projects.cdnSlug }).from(projects).where(eq(projects.id, sql.placeholder("projectId"))).prepare(),
    projectsWithReleases: db.selectDistinct({ id: releases.projectId }).from(releases).where(eq(releases.status, "published")).orderBy(asc(releases.projectId)).prepare(),
    // A release's own manifest: the sequence of its publish and the key that signs it (docs/delivery.md).
    setReleaseManifest: db
      .update(releases)
      .set({ manifestSequence: sql.placeholder("sequence") as unknown as number, signingKey: sql.placeholder("key") as unknown as number })
      .where(eq(releases.id, sql.placeholder("releaseId")))
      .prepare(),
    releaseManifest: db.select({ sequence: releases.manifestSequence, key: releases.signingKey }).from(releases).where(eq(releases.id, sql.placeholder("releaseId"))).prepare(),
    releaseManifestByPublicId: db.select({ sequence: releases.manifestSequence, key: releases.signingKey }).from(releases).where(eq(releases.publicId, sql.placeholder("publicId"))).prepare(),
    lastSequenceOfKind: db
      .select({ sequence: pathChanges.sequence })
      .from(pathChanges)
      .where(and(eq(pathChanges.projectId, sql.placeholder("projectId")), eq(pathChanges.kind, sql.placeholder("kind"))))
      .orderBy(desc(pathChanges.id))
      .limit(1)
      .prepare(),
    // The last move of a channel by its name (a deleted and remade channel: its remaking).
    channelSequence: db
      .select({ sequence: pathChanges.sequence })
      .from(pathChanges)
      .where(and(eq(pathChanges.projectId, sql.placeholder("projectId")), eq(pathChanges.kind, "channel_moved"), sql`json_extract(${pathChanges.change}, '$.channel.name') = ${sql.placeholder("name")}`))
      .orderBy(desc(pathChanges.id))
      .limit(1)
      .prepare(),
    currentKey: db.select({ n: signingKeys.n }).from(signingKeys).where(eq(signingKeys.projectId, sql.placeholder("projectId"))).orderBy(desc(signingKeys.n)).limit(1).prepare(),
    projectPublicId: db.select({ publicId: projects.publicId }).from(projects).where(eq(projects.id, sql.placeholder("projectId"))).prepare(),
    // Releases published before manifests: the sequence of their publish in the record, the first key.
    backfillReleaseManifests: db
      .update(releases)
      .set({
        signingKey: 1,
        manifestSequence: sql<number>`(SELECT min(${pathChanges.sequence}) FROM ${pathChanges} WHERE ${pathChanges.projectId} = ${releases.projectId} AND ${pathChanges.kind} = 'release_published' AND json_extract(${pathChanges.change}, '$.release.id') = ${releases.publicId})`,
      })
      .where(and(eq(releases.status, "published"), isNull(releases.manifestSequence)))
      .prepare(),
    anyChange: db.select({ id: pathChanges.id }).from(pathChanges).limit(1).prepare(),
    after: db.select().from(pathChanges).where(gt(pathChanges.id, sql.placeholder("afterId"))).orderBy(asc(pathChanges.id)).limit(sql.placeholder("limit")).prepare(),
    lastId: db.select({ id: pathChanges.id }).from(pathChanges).orderBy(desc(pathChanges.id)).limit(1).prepare(),
  };
}

export type PathQueries = ReturnType<typeof preparePathQueries>;
