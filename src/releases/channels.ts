import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, asc, eq } from "drizzle-orm";
import { channelFileUrl } from "../bundles/urls.ts";
import { iso } from "../common/clock.ts";
import { badRequest, conflict, notFound } from "../common/errors.ts";
import { newSlug } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import { shippedFormats, type BundleFormat } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { channels, releaseLanguages, releases, type ChannelRow, type ProjectRow } from "../storage/schema.ts";
import { CHANNEL_NAME_MAX_LENGTH } from "./limits.ts";
import type { ChannelMove } from "./model.ts";
import { findRelease } from "./releases.ts";

/**
 * Named channels (docs/releases.md "Channels"): `staging`, `beta`, `production` each point at one
 * published release and serve it under a random slug of their own, so a leaked URL of one channel
 * exposes no other. Every move, rotation and deletion purges the project's CDN entries at once
 * (changes.notify), as a publish does for `latest`.
 */
export interface ChannelView {
  name: string;
  slug: string;
  release_id: string;
  updated_at: string;
  /** The channel's URL of each file of the release it points at, by language then format. */
  urls: Record<string, Partial<Record<BundleFormat, string>>>;
}

const CHANNEL_NAME = new RegExp(`^[a-z0-9-]{1,${CHANNEL_NAME_MAX_LENGTH}}$`);
/** `latest` is the CDN's own moving path (docs/interface.md §4.5). */
const RESERVED_NAMES = new Set(["latest"]);

export function checkChannelName(name: string): string {
  if (!CHANNEL_NAME.test(name)) throw badRequest(`invalid channel name "${name.slice(0, 40)}": 1 to ${CHANNEL_NAME_MAX_LENGTH} characters of a-z, 0-9 and "-"`);
  if (RESERVED_NAMES.has(name)) throw badRequest(`invalid channel name "${name}": reserved`);
  return name;
}

/** A name no channel can have finds none: 404 like an unknown one (only creating one checks the name, 400). */
function findChannel(db: Db, project: ProjectRow, name: string): ChannelRow {
  const row = db
    .select()
    .from(channels)
    .where(and(eq(channels.projectId, project.id), eq(channels.name, name)))
    .get();
  if (!row) throw notFound("channel not found");
  return row;
}

function channelView(db: Db, cdnUrl: string, project: ProjectRow, c: ChannelRow): ChannelView {
  const r = db.select({ publicId: releases.publicId, formats: releases.formats }).from(releases).where(eq(releases.id, c.releaseId)).get()!;
  const formats = shippedFormats(r.formats);
  const urls: ChannelView["urls"] = {};
  const codes = db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, c.releaseId)).orderBy(asc(releaseLanguages.code)).all();
  for (const { code } of codes) {
    const byFormat: Partial<Record<BundleFormat, string>> = {};
    for (const format of formats) byFormat[format] = channelFileUrl(cdnUrl, project.cdnSlug, c.slug, code, format);
    urls[code] = byFormat;
  }
  return { name: c.name, slug: c.slug, release_id: r.publicId, updated_at: iso(c.updatedAt), urls };
}

export function listChannels(db: Db, cdnUrl: string, project: ProjectRow): ChannelView[] {
  return db
    .select()
    .from(channels)
    .where(eq(channels.projectId, project.id))
    .orderBy(asc(channels.name))
    .all()
    .map((c) => channelView(db, cdnUrl, project, c));
}

/**
 * Points a channel at a published release of the project, creating the channel (with its own
 * slug) the first time: `created` tells the route to answer 201.
 */
export function moveChannel({ db, clock, changes }: ServiceDeps, cdnUrl: string, project: ProjectRow, name: string, input: ChannelMove, by: AuditBy = SYSTEM): { created: boolean; channel: ChannelView } {
  checkChannelName(name);
  const release = findRelease(db, project, input.release_id);
  if (release.status !== "published") throw conflict("only a published release can be on a channel");
  const now = clock.now();
  const { row, created } = db.transaction(
    (tx) => {
      const existing = tx.select().from(channels).where(and(eq(channels.projectId, project.id), eq(channels.name, name))).get();
      recordAudit(db, clock, by, {
        action: "channel_moved",
        target: { kind: "channel", id: name, name },
        projectId: project.id,
        details: { release_id: release.publicId, tag: release.tag, created: !existing },
      });
      const row = existing
        ? tx.update(channels).set({ releaseId: release.id, updatedAt: now }).where(eq(channels.id, existing.id)).returning().get()!
        : tx.insert(channels).values({ projectId: project.id, name, slug: newSlug(), releaseId: release.id, createdAt: now, updatedAt: now }).returning().get();
      changes.paths.channelMoved(project.id, { name, slug: row.slug }, release.id, existing?.releaseId ?? null);
      return { row, created: !existing };
    },
    { behavior: "immediate" },
  );
  changes.notify(project.id);
  return { created, channel: channelView(db, cdnUrl, project, row) };
}

export function getChannel(db: Db, cdnUrl: string, project: ProjectRow, name: string): ChannelView {
  return channelView(db, cdnUrl, project, findChannel(db, project, name));
}

export function deleteChannel({ db, clock, changes }: ServiceDeps, project: ProjectRow, name: string, by: AuditBy = SYSTEM): void {
  const c = findChannel(db, project, name);
  db.transaction((tx) => {
    tx.delete(channels).where(eq(channels.id, c.id)).run();
    changes.paths.channelMoved(project.id, { name, slug: c.slug }, null, c.releaseId);
    recordAudit(db, clock, by, { action: "channel_moved", target: { kind: "channel", id: name, name }, projectId: project.id, details: { release_id: null, deleted: true } });
  });
  changes.notify(project.id);
}

/** A new channel slug: the channel's old URLs 404 at once (docs/releases.md "Channels"). */
export function rotateChannelSlug({ db, clock, changes }: ServiceDeps, project: ProjectRow, name: string, by: AuditBy = SYSTEM): { slug: string } {
  const c = findChannel(db, project, name);
  const slug = newSlug();
  db.transaction((tx) => {
    tx.update(channels).set({ slug }).where(eq(channels.id, c.id)).run();
    changes.paths.channelSlugRotated(project.id, { name, slug }, c.releaseId, c.slug);
    recordAudit(db, clock, by, { action: "slug_rotated", target: { kind: "channel", id: name, name }, projectId: project.id, details: { of: "channel" } });
  });
  changes.notify(project.id);
  return { slug };
}

/** The channels that point at a release, by name: deleting it is refused while there are any. */
export function channelsOn(db: Db, releaseId: number): string[] {
  return db
    .select({ name: channels.name })
    .from(channels)
    .where(eq(channels.releaseId, releaseId))
    .orderBy(asc(channels.name))
    .all()
    .map((c) => c.name);
}
