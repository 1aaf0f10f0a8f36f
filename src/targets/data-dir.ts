import { rename } from "node:fs/promises";
import { join } from "node:path";
import type { RecordedPathChange } from "../changes/paths.ts";
import { commitStagedRelease, removeReleaseFiles } from "../bundles/files.ts";
import type { PublishTarget, PublishTargetKind, StagedRelease } from "./target.ts";

/**
 * The data directory (docs/publishing.md §5): where the server's own CDN reads a release's files,
 * `releases/<release id>/`. It takes a release by moving its staged folder into place, flushed,
 * before the database publishes it, and replays a deletion by removing the folder before the
 * deletion's caller answers. `latest`, channels and slugs are the database's to resolve here, so
 * the other changes leave the disk as it is.
 */
export class DataDirTarget implements PublishTarget {
  readonly name = "data-dir";
  readonly inline = true;

  constructor(private readonly dataDir: string) {}

  async take(release: StagedRelease): Promise<StagedRelease> {
    return { publicId: release.publicId, dir: await commitStagedRelease(this.dataDir, release.publicId, release.dir) };
  }

  drop(releasePublicId: string): Promise<void> {
    return removeReleaseFiles(this.dataDir, releasePublicId);
  }

  async replay({ change }: RecordedPathChange): Promise<void> {
    if (change.kind === "release_deleted") await removeReleaseFiles(this.dataDir, change.release.id);
  }
}

export const dataDirectory: PublishTargetKind = {
  name: "data-dir",
  make: ({ settings }) => new DataDirTarget(settings.dataDir),
};
