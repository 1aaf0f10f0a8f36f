import { rm } from "node:fs/promises";
import { join } from "node:path";
import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import { releaseDir } from "../bundles/layout.ts";
import { iso } from "../common/clock.ts";
import { HttpError, invalidField } from "../common/errors.ts";
import { sha256Hex } from "../common/hash.ts";
import { log } from "../common/log.ts";
import { compareCodePoints } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import { ContentError, isPlainObject } from "../formats/read.ts";
import { readOneLanguage } from "../formats/registry.ts";
import { readMessage, type MessageSyntax } from "../messages/read.ts";
import type { Db } from "../storage/db.ts";
import { builds, releases, type ProjectRow } from "../storage/schema.ts";
import { BUILDS_KEPT, type NewBuild } from "./model.ts";
import { BUILD_SEGMENT } from "./protocol/manifest.ts";

/**
 * App builds (docs/delivery.md "App builds"): CI registers the base files an app build was made
 * from, and the CDN serves each release filtered for it, leaving out every message the build does
 * not have or whose placeholders differ from the build's, so the app keeps its bundled string.
 */

/** A message's placeholders: each name, with its ARB type (`Object` when the file gives none), or null where the file has no types. */
export type Placeholders = Record<string, string | null>;
/** A build's messages, by key as its files name them (an ARB file: the message name). */
export type BuildMessages = Record<string, Placeholders>;

/** gen-l10n's type for a placeholder declared without one. */
export const ARB_DEFAULT_TYPE = "Object";

/** The placeholders of a message as its file states them: names from the message, types from an ARB `@name` entry. */
export function placeholdersOf(value: string, syntax: MessageSyntax, arbMeta: Record<string, unknown> | null): Placeholders {
  const out: Placeholders = {};
  const declared = arbMeta && isPlainObject(arbMeta.placeholders) ? arbMeta.placeholders : null;
  for (const { name } of readMessage(value, syntax).arguments) {
    if (arbMeta === null) {
      out[name] = null;
      continue;
    }
    const attrs = declared?.[name];
    const type = isPlainObject(attrs) && typeof attrs.type === "string" ? attrs.type : ARB_DEFAULT_TYPE;
    out[name] = type;
  }
  return out;
}

/**
 * The build id (docs/delivery.md "App builds"): the first 16 hex digits of the SHA-256 of the
 * build's message signature, the JSON array of `[key, [[name, type or null], ...]]` with keys and
 * each key's names in code-point order. The same messages give the same id whatever the bytes.
 */
export function buildIdOf(messages: BuildMessages): string {
  const signature = Object.keys(messages)
    .sort(compareCodePoints)
    .map((key) => {
      const p = messages[key]!;
      return [key, Object.keys(p).sort(compareCodePoints).map((name) => [name, p[name]!])];
    });
  return sha256Hex(JSON.stringify(signature)).slice(0, 16);
}

/** Reads a build's base files into its messages; a file that does not read is a 400 naming it. */
export async function buildMessagesOf(files: NewBuild["files"], syntax: MessageSyntax): Promise<BuildMessages> {
  const messages: BuildMessages = {};
  for (const [i, file] of files.entries()) {
    let entries;
    try {
      entries = (await readOneLanguage(file.format, file.content)).entries;
    } catch (err) {
      if (err instanceof ContentError) throw new HttpError(err.status, err.message.replace('invalid field "content"', `invalid field "files[${i}].content"`));
      throw err;
    }
    for (const entry of entries) {
      // The first file that names a key decides its placeholders.
      if (Object.hasOwn(messages, entry.key)) continue;
      messages[entry.key] = placeholdersOf(entry.value, syntax, file.format === "arb" ? (entry.attributes ?? {}) : null);
    }
  }
  if (Object.keys(messages).length === 0) throw invalidField("files", "the build's files hold no message");
  return messages;
}

export interface BuildView {
  build_id: string;
  name: string | null;
  registered_at: string;
  /** How many keys of the latest release this build's files leave out; null before anything is published. */
  left_out: number | null;
}

/**
 * `POST /projects/:pid/builds`: registers (or registers again, moving it to the front) a build;
 * past BUILDS_KEPT the oldest are forgotten, with their files. Answers the build and its key count.
 */
export async function registerBuild(deps: ServiceDeps, dataDir: string, project: ProjectRow, input: NewBuild): Promise<{ build_id: string; name: string | null; registered_at: string; keys: number }> {
  const { db, clock, changes } = deps;
  const messages = await buildMessagesOf(input.files, project.messageSyntax);
  const buildId = buildIdOf(messages);
  const name = input.name?.trim() || null;
  const now = clock.now();
  const keyCount = Object.keys(messages).length;
  const forgotten = db.transaction(
    (tx) => {
      tx.insert(builds)
        .values({ projectId: project.id, buildId, name, messages: JSON.stringify(messages), keyCount, registeredAt: now })
        .onConflictDoUpdate({ target: [builds.projectId, builds.buildId], set: { name, registeredAt: now } })
        .run();
      const kept = tx.select({ id: builds.id }).from(builds).where(eq(builds.projectId, project.id)).orderBy(desc(builds.registeredAt), desc(builds.id)).limit(BUILDS_KEPT).all();
      const gone = tx
        .delete(builds)
        .where(and(eq(builds.projectId, project.id), notInArray(builds.id, kept.map((k) => k.id))))
        .returning({ buildId: builds.buildId })
        .all();
      return gone.map((g) => g.buildId);
    },
    { behavior: "immediate" },
  );
  if (forgotten.length > 0) {
    // Their paths 404 at once (the CDN drops the project's entries); their files go from the disk.
    changes.notify(project.id);
    await removeBuildFiles(db, dataDir, project.id, forgotten).catch((err) => log.warn("could not remove the files of forgotten builds", { error: String(err) }));
  }
  return { build_id: buildId, name, registered_at: iso(now), keys: keyCount };
}

/** Removes the files a forgotten build had in each published release's folder. */
async function removeBuildFiles(db: Db, dataDir: string, projectId: number, buildIds: string[]): Promise<void> {
  const rows = db.select({ publicId: releases.publicId }).from(releases).where(and(eq(releases.projectId, projectId), eq(releases.status, "published"))).all();
  for (const r of rows) for (const id of buildIds) await rm(join(releaseDir(dataDir, r.publicId), BUILD_SEGMENT, id), { recursive: true, force: true });
}

export interface BuildRecord {
  buildId: string;
  name: string | null;
  registeredAt: number;
  messages: BuildMessages;
}

/** A registered build of the project, or undefined (unknown, or forgotten). */
export function findBuild(db: Db, projectId: number, buildId: string): BuildRecord | undefined {
  const row = db.select().from(builds).where(and(eq(builds.projectId, projectId), eq(builds.buildId, buildId))).get();
  return row && { buildId: row.buildId, name: row.name, registeredAt: row.registeredAt, messages: JSON.parse(row.messages) as BuildMessages };
}

/** The project's builds, newest registration first. */
export function buildRows(db: Db, projectId: number, only?: string[]) {
  const where = only ? and(eq(builds.projectId, projectId), inArray(builds.buildId, only)) : eq(builds.projectId, projectId);
  return db.select({ buildId: builds.buildId, name: builds.name, registeredAt: builds.registeredAt }).from(builds).where(where).orderBy(desc(builds.registeredAt), desc(builds.id)).all();
}
