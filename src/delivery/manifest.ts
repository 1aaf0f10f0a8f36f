import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { bundlePath } from "../bundles/layout.ts";
import { iso } from "../common/clock.ts";
import { compareCodePoints } from "../common/text.ts";
import { shippedFormats } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases, type ReleaseRow, type SigningKeyRow } from "../storage/schema.ts";
import { bunHashes } from "./hashes.ts";
import { secretKeyOfRow, untrustedCommentOf } from "./keys.ts";
import { signFile } from "./protocol/crypto.ts";
import { manifestComment, MANIFEST_VERSION, type Manifest, type ManifestLanguage } from "./protocol/manifest.ts";
import { signatureFile } from "./protocol/minisign.ts";

/**
 * Manifests (docs/delivery.md "Manifests"): what a release, `latest` or a channel serves, each
 * file's pinned URL, SHA-256 and size, and a `sequence` that only grows. A manifest is made from
 * what the release recorded at publish (its `ManifestBasis`) and what the path record says (the
 * sequence, the key), so the CDN and every copy of its paths (object storage) make the same bytes.
 */

/** A file's digest: its SHA-256 (lower-case hex) and size, measured while it was written. */
export interface FileDigest {
  sha256: string;
  bytes: number;
}

/** What a release's manifests say besides URLs and sequence: its tag as published, every file's digest. */
export interface ManifestBasis {
  tag: string;
  /** By language code, then format. */
  files: Record<string, Record<string, FileDigest>>;
}

/**
 * A release's basis: as published, or, for a release published before manifests, measured from
 * its files now and kept (its tag as it is now).
 */
export async function basisOf(db: Db, dataDir: string, release: ReleaseRow): Promise<ManifestBasis | null> {
  if (release.manifest !== null) return JSON.parse(release.manifest) as ManifestBasis;
  const files: ManifestBasis["files"] = {};
  for (const { code } of db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, release.id)).all()) {
    files[code] = {};
    for (const format of shippedFormats(release.formats)) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(bundlePath(dataDir, release.publicId, code, format));
      } catch {
        return null; // deleted meanwhile
      }
      files[code][format] = { sha256: bunHashes.sha256Hex(bytes), bytes: bytes.length };
    }
  }
  const basis: ManifestBasis = { tag: release.tag, files };
  db.update(releases).set({ manifest: JSON.stringify(basis) }).where(eq(releases.id, release.id)).run();
  return basis;
}

/** Where the manifest's files are: each pinned (a build's, for a build's manifest). */
export interface ManifestPlace {
  cdnUrl: string;
  projectSlug: string;
  releaseSlug: string;
  /** A build's manifest: its id and its files' digests (docs/delivery.md "App builds"). */
  build?: { id: string; files: ManifestBasis["files"] };
}

export interface ManifestRelease {
  row: ReleaseRow;
  languages: { code: string; isBaseLanguage: boolean }[];
  basis: ManifestBasis;
}

export function manifestReleaseOf(db: Db, row: ReleaseRow, basis: ManifestBasis): ManifestRelease {
  const languages = db.select({ code: releaseLanguages.code, isBaseLanguage: releaseLanguages.isBaseLanguage }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, row.id)).all();
  return { row, languages: languages.sort((a, b) => compareCodePoints(a.code, b.code)), basis };
}

/** The manifest's bytes: JSON with two-space indentation and a final newline, in a fixed order. */
export function manifestBytes(release: ManifestRelease, place: ManifestPlace, sequence: number): Uint8Array {
  const dir = place.build ? `${place.cdnUrl}/p/${place.projectSlug}/r/${place.releaseSlug}/b/${place.build.id}` : `${place.cdnUrl}/p/${place.projectSlug}/r/${place.releaseSlug}`;
  const digests = place.build?.files ?? release.basis.files;
  const languages: Record<string, ManifestLanguage> = {};
  for (const lang of release.languages) {
    const files: ManifestLanguage["files"] = {};
    for (const format of shippedFormats(release.row.formats)) {
      const digest = digests[lang.code]?.[format];
      if (digest) files[format] = { url: `${dir}/${lang.code}.${format}`, sha256: digest.sha256, bytes: digest.bytes };
    }
    languages[lang.code] = { is_base_language: lang.isBaseLanguage, files };
  }
  const manifest: Manifest = {
    manifest_version: MANIFEST_VERSION,
    sequence,
    ...(place.build ? { build_id: place.build.id } : {}),
    release: { id: release.row.publicId, tag: release.basis.tag, published_at: iso(release.row.publishedAt!) },
    languages,
  };
  return new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
}

/** The manifest's `manifest.json.minisig`: signed with `key`, naming its path under the CDN's address. */
export function manifestSignature(bytes: Uint8Array, key: SigningKeyRow, sequence: number, releaseId: string, path: string): Uint8Array {
  const secret = secretKeyOfRow(key);
  const text = signatureFile(signFile(bytes, manifestComment(sequence, releaseId, path), secret, bunHashes), untrustedCommentOf(secret.keyNumber));
  return new TextEncoder().encode(text);
}
