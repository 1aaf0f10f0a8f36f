import { relative } from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { releasesRoot } from "../bundles/layout.ts";
import { CACHE_CONTROL_LATEST, CACHE_CONTROL_PINNED } from "../bundles/urls.ts";
import type { Changes } from "../changes/changes.ts";
import type { PathRecord } from "../changes/paths.ts";
import type { Settings } from "../config/settings.ts";
import { CONTENT_TYPES, shippedFormats, type BundleFormat } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { channels, projects, releaseLanguages, releases, signingKeys, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import { leftOutKeys, makeBuildFile, releaseSignatureOf, type BuildFile, type ReleaseSignature } from "./build-files.ts";
import { findBuild, type BuildRecord } from "./builds.ts";
import { currentKey, keyFileOf, keyNumbered } from "./keys.ts";
import { basisOf, manifestBytes, manifestReleaseOf, manifestSignature, type ManifestBasis } from "./manifest.ts";
import { buildDirOf, channelDirOf, currentKeyPathOf, manifestPathOf, numberedKeyPathOf, releaseDirOf, SIGNATURE_SUFFIX } from "./protocol/manifest.ts";

/**
 * The objects of delivery the CDN serves beside the files (docs/delivery.md): manifests and their
 * signatures, the project's key files, and app builds' files and manifests. Made on a cache miss
 * from the database and the release files; the CDN caches them like files.
 */

/** A CDN path of delivery, parsed (cdn/paths.ts). `releaseSlug` is a slug, `latest`, or a channel's slug when `channel`. */
export type DeliveryPath =
  | { kind: "manifest"; projectSlug: string; releaseSlug: string; channel: boolean; build: string | null; signature: boolean }
  | { kind: "build_file"; projectSlug: string; releaseSlug: string; channel: boolean; build: string; code: string; ext: BundleFormat }
  | { kind: "key"; projectSlug: string; n: number | null; signature: boolean };

export const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";
export const MANIFEST_CONTENT_TYPE = "application/json; charset=utf-8";

/** What the CDN serves for a delivery path: bytes made now, or a file on the disk. */
export type DeliveryObject = {
  projectId: number;
  /** The cache's key of the content: the same key, the same bytes. */
  key: string;
  contentType: string;
  /** Cached like `latest` (true) or like a pinned file. */
  moving: boolean;
} & ({ bytes: Uint8Array } | { diskPath: string });

export const cacheControlOf = (moving: boolean) => (moving ? CACHE_CONTROL_LATEST : CACHE_CONTROL_PINNED);

const RELEASE_SIGNATURES_KEPT = 4;
const BUILD_FILES_KEPT = 4096;
const LEFT_OUT_KEPT = 64;

/** A Map that forgets its oldest entries past `max`. */
class Bounded<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: string, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}

interface Resolved {
  project: ProjectRow;
  release: ReleaseRow;
  /** The directory of the path's release view: pinned, `latest` or the channel's. */
  dir: string;
  moving: boolean;
  sequence: number;
  /** The signing key's number. */
  key: number;
}

export class Delivery {
  private readonly signatures = new Bounded<Promise<ReleaseSignature>>(RELEASE_SIGNATURES_KEPT);
  private readonly buildFiles = new Bounded<Promise<BuildFile>>(BUILD_FILES_KEPT);
  private readonly leftOut = new Bounded<Promise<Set<string>>>(LEFT_OUT_KEPT);

  constructor(
    private readonly db: Db,
    private readonly settings: Pick<Settings, "dataDir" | "cdnUrl">,
    private readonly paths: PathRecord,
  ) {}

  /**
   * Forgets what it made of a project's releases when the project changes (a build forgotten and
   * its files removed, the message syntax changed): made again, from the same files, when asked.
   */
  forgetProject(projectId: number): void {
    for (const cache of [this.signatures, this.buildFiles, this.leftOut] as Map<string, unknown>[]) {
      for (const key of cache.keys()) if (key.startsWith(`${projectId}/`)) cache.delete(key);
    }
  }

  /** Every delivery object of `path`, or null (404). */
  async resolve(path: DeliveryPath): Promise<DeliveryObject | null> {
    const project = this.db.select().from(projects).where(eq(projects.cdnSlug, path.projectSlug)).get();
    if (!project) return null;
    if (path.kind === "key") return this.keyObject(project, path.n, path.signature);
    const at = this.releaseView(project, path.releaseSlug, path.channel);
    if (!at) return null;
    const build = path.build === null ? undefined : findBuild(this.db, project.id, path.build);
    if (path.build !== null && !build) return null;
    if (path.kind === "build_file") {
      if (!shippedFormats(at.release.formats).includes(path.ext)) return null;
      const file = await this.buildFile(at.release, build!, path.code, path.ext);
      if (!file) return null;
      // Keyed as the CDN keys files, by their place under releases/: a build's language that
      // loses nothing shares the release's own file and its cache entry.
      const key = relative(releasesRoot(this.settings.dataDir), file.path);
      return { projectId: project.id, key, diskPath: file.path, contentType: CONTENT_TYPES[path.ext], moving: at.moving };
    }
    const dir = build ? buildDirOf(at.dir, build.buildId) : at.dir;
    const manifestPath = manifestPathOf(dir);
    const made = await this.manifest(project, at, build);
    if (!made) return null;
    const key = `${manifestPath}#${at.sequence}#${at.key}`;
    if (!path.signature) return { projectId: project.id, key, bytes: made.bytes, contentType: MANIFEST_CONTENT_TYPE, moving: at.moving };
    const keyRow = keyNumbered(this.db, project.id, at.key);
    if (!keyRow) return null;
    const bytes = manifestSignature(made.bytes, keyRow, at.sequence, at.release.publicId, manifestPath);
    return { projectId: project.id, key: `${key}${SIGNATURE_SUFFIX}`, bytes, contentType: TEXT_CONTENT_TYPE, moving: at.moving };
  }

  /** The release a path names now, with its manifest's sequence and key (docs/delivery.md "Manifests"). */
  private releaseView(project: ProjectRow, slug: string, channel: boolean): Resolved | null {
    const published = and(eq(releases.projectId, project.id), eq(releases.status, "published"));
    if (channel) {
      const row = this.db.select({ release: releases, name: channels.name }).from(channels).innerJoin(releases, eq(releases.id, channels.releaseId)).where(and(eq(channels.projectId, project.id), eq(channels.slug, slug), eq(releases.status, "published"))).get();
      if (!row) return null;
      return { project, release: row.release, dir: channelDirOf(project.cdnSlug, slug), moving: true, sequence: this.paths.channelSequence(project.id, row.name), key: this.paths.currentKey(project.id) };
    }
    if (slug === "latest") {
      const release = this.db.select().from(releases).where(published).orderBy(desc(releases.publishedAt), desc(releases.id)).limit(1).get();
      if (!release) return null;
      return { project, release, dir: releaseDirOf(project.cdnSlug, "latest"), moving: true, sequence: this.paths.latestSequence(project.id), key: this.paths.currentKey(project.id) };
    }
    const release = this.db.select().from(releases).where(and(published, eq(releases.slug, slug))).get();
    if (!release) return null;
    return { project, release, dir: releaseDirOf(project.cdnSlug, slug), moving: false, sequence: release.manifestSequence ?? 0, key: release.signingKey ?? 1 };
  }

  private async manifest(project: ProjectRow, at: Resolved, build: BuildRecord | undefined): Promise<{ bytes: Uint8Array } | null> {
    const basis = await basisOf(this.db, this.settings.dataDir, at.release);
    if (!basis) return null;
    const release = manifestReleaseOf(this.db, at.release, basis);
    let buildPlace: { id: string; files: ManifestBasis["files"] } | undefined;
    if (build) {
      const files: ManifestBasis["files"] = {};
      for (const { code } of release.languages) {
        files[code] = {};
        for (const format of shippedFormats(at.release.formats)) {
          const file = await this.buildFile(at.release, build, code, format);
          if (!file) return null;
          files[code][format] = { sha256: file.sha256, bytes: file.bytes };
        }
      }
      buildPlace = { id: build.buildId, files };
    }
    const bytes = manifestBytes(release, { cdnUrl: this.settings.cdnUrl, projectSlug: project.cdnSlug, releaseSlug: at.release.slug!, build: buildPlace }, at.sequence);
    return { bytes };
  }

  /** A file of a build's view of a release, made once (docs/delivery.md "App builds"). */
  private async buildFile(release: ReleaseRow, build: BuildRecord, code: string, format: BundleFormat): Promise<BuildFile | null> {
    const shipped = this.db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(and(eq(releaseLanguages.releaseId, release.id), eq(releaseLanguages.code, code))).get();
    if (!shipped) return null;
    const key = `${release.projectId}/${release.publicId}/${build.buildId}/${code}.${format}`;
    let made = this.buildFiles.get(key);
    if (!made) {
      made = (async () => {
        const basis = await basisOf(this.db, this.settings.dataDir, release);
        if (!basis) throw new Error(`release ${release.publicId} has no files`);
        const signature = await this.releaseSignature(release);
        const leftOut = await this.leftOutOf(release, build, signature);
        return makeBuildFile(this.settings.dataDir, release, basis, build, signature, leftOut, code, format);
      })();
      made.catch(() => this.buildFiles.delete(key));
      this.buildFiles.set(key, made);
    }
    return made;
  }

  /** What a build leaves out of a release, decided once (docs/delivery.md "App builds"). */
  private leftOutOf(release: ReleaseRow, build: BuildRecord, signature: ReleaseSignature): Promise<Set<string>> {
    const key = `${release.projectId}/${release.publicId}/${build.buildId}`;
    let set = this.leftOut.get(key);
    if (!set) this.leftOut.set(key, (set = Promise.resolve(leftOutKeys(signature, build.messages))));
    return set;
  }

  /** The base language's keys and placeholders of a release, read once from its files. */
  releaseSignature(release: ReleaseRow): Promise<ReleaseSignature> {
    const key = `${release.projectId}/${release.publicId}`;
    let sig = this.signatures.get(key);
    if (!sig) {
      const base = this.db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(and(eq(releaseLanguages.releaseId, release.id), eq(releaseLanguages.isBaseLanguage, true))).get();
      const syntax = this.db.select({ syntax: projects.messageSyntax }).from(projects).where(eq(projects.id, release.projectId)).get()!.syntax;
      sig = base ? releaseSignatureOf(this.settings.dataDir, release, base.code, syntax) : Promise.resolve({ keys: [], arbNames: new Map(), placeholders: new Map(), syntax });
      sig.catch(() => this.signatures.delete(key));
      this.signatures.set(key, sig);
    }
    return sig;
  }

  private keyObject(project: ProjectRow, n: number | null, signature: boolean): DeliveryObject | null {
    const row = n === null ? currentKey(this.db, project.id) : keyNumbered(this.db, project.id, n);
    if (!row) return null;
    const path = n === null ? currentKeyPathOf(project.cdnSlug) : numberedKeyPathOf(project.cdnSlug, n);
    if (signature) {
      if (n === null || row.signature === null) return null;
      return { projectId: project.id, key: `${path}${SIGNATURE_SUFFIX}#${row.n}`, bytes: new TextEncoder().encode(row.signature), contentType: TEXT_CONTENT_TYPE, moving: false };
    }
    return { projectId: project.id, key: `${path}#${row.n}`, bytes: new TextEncoder().encode(keyFileOf(row)), contentType: TEXT_CONTENT_TYPE, moving: n === null };
  }

  /** A project's key n, by its row id (the mirror's renderer). */
  keyOf(projectId: number, n: number) {
    return keyNumbered(this.db, projectId, n);
  }

  /** A project's key n, by its public id (the mirror's renderer). */
  keyOfProject(projectPublicId: string, n: number) {
    return this.db.select({ key: signingKeys }).from(signingKeys).innerJoin(projects, eq(projects.id, signingKeys.projectId)).where(and(eq(projects.publicId, projectPublicId), eq(signingKeys.n, n))).get()?.key;
  }

  /** The manifest of a release as a change of the path record names it (the mirror's renderer). */
  async recordedManifest(releasePublicId: string, projectSlug: string, releaseSlug: string, sequence: number): Promise<{ release: ReleaseRow; bytes: Uint8Array } | null> {
    const release = this.db.select().from(releases).where(and(eq(releases.publicId, releasePublicId), eq(releases.status, "published"))).get();
    if (!release) return null;
    const basis = await basisOf(this.db, this.settings.dataDir, release);
    if (!basis) return null;
    const bytes = manifestBytes(manifestReleaseOf(this.db, release, basis), { cdnUrl: this.settings.cdnUrl, projectSlug, releaseSlug }, sequence);
    return { release, bytes };
  }
}

const deliveries = new WeakMap<Db, Delivery>();

/**
 * The app's one Delivery (its caches shared by the CDN and the dashboard API), made on first use
 * for the app's database (docs/architecture.md "Requests": no module-level state across apps).
 */
export function deliveryOf(deps: { db: Db; settings: Pick<Settings, "dataDir" | "cdnUrl">; changes: Pick<Changes, "paths" | "subscribe"> }): Delivery {
  let delivery = deliveries.get(deps.db);
  if (!delivery) {
    const made = new Delivery(deps.db, deps.settings, deps.changes.paths);
    deps.changes.subscribe((projectId) => made.forgetProject(projectId));
    deliveries.set(deps.db, (delivery = made));
  }
  return delivery;
}
