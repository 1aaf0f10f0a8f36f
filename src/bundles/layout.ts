import { join } from "node:path";
import { isPublicIdShape } from "../common/ids.ts";
import { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";
import type { BundleFormat } from "../formats/registry.ts";

/**
 * Where release files live (docs/publishing.md §5): `<dataDir>/releases/<release public id>/<code>.<ext>`,
 * plus `<code>.<ext>.gz` / `.br` once compressed. Paths are built only from values the database
 * holds (a public id and a shipped language code), never from URL text; both are re-checked here
 * so a corrupt row cannot point outside the folder.
 */
export const RELEASES_DIR = "releases";
export const STAGING_PREFIX = ".staging-";

const SAFE_CODE = new RegExp(`^[A-Za-z0-9-]{1,${LANGUAGE_CODE_MAX_LENGTH}}$`);

export function releasesRoot(dataDir: string): string {
  return join(dataDir, RELEASES_DIR);
}

export function releaseDir(dataDir: string, releasePublicId: string): string {
  if (!isPublicIdShape(releasePublicId)) throw new Error(`not a release id: ${JSON.stringify(releasePublicId)}`);
  return join(releasesRoot(dataDir), releasePublicId);
}

export function bundleFileName(code: string, ext: BundleFormat): string {
  if (!SAFE_CODE.test(code)) throw new Error(`not a language code: ${JSON.stringify(code)}`);
  return `${code}.${ext}`;
}

export function bundlePath(dataDir: string, releasePublicId: string, code: string, ext: BundleFormat): string {
  return join(releaseDir(dataDir, releasePublicId), bundleFileName(code, ext));
}
