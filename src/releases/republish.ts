import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { eq } from "drizzle-orm";
import { readFile } from "node:fs/promises";
import { ReleaseStaging } from "../bundles/files.ts";
import { bundleFileName, bundlePath } from "../bundles/layout.ts";
import { conflict } from "../common/errors.ts";
import { newId, newSlug } from "../common/ids.ts";
import { log } from "../common/log.ts";
import type { AppDeps, ServiceDeps } from "../deps.ts";
import { basisOf } from "../delivery/manifest.ts";
import { shippedFormats } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import type { RepublishInput } from "./model.ts";
import { nextPublishedAt } from "./publish.ts";
import { assertTagFree, cleanField, findRelease } from "./releases.ts";

/**
 * Roll back by republishing (docs/releases.md "Roll back"): a new release with the source's
 * languages and byte-identical files (copied, never compiled again, so what an app gets is exactly
 * what it got from the source), a new slug and `published_at` now, so `latest` serves the old
 * strings at once, every pinned URL keeps working, and `release_published` tells the apps. The
 * files are copied into staging and flushed before the one transaction that creates the release,
 * as a publish does (docs/publishing.md §2): a crash leaves no release and no stray files served.
 */
export async function republishRelease(deps: ServiceDeps & Pick<AppDeps, "targets">, dataDir: string, project: ProjectRow, sourcePublicId: string, userId: number | null, input: RepublishInput, by: AuditBy = SYSTEM): Promise<ReleaseRow> {
  const { db, clock, changes } = deps;
  const source = findRelease(db, project, sourcePublicId);
  if (source.status !== "published") throw conflict("only a published release can be republished");
  const name = cleanField(input.name, "name");
  const tag = cleanField(input.tag, "tag");
  assertTagFree(db, project, tag);
  const languages = db.select().from(releaseLanguages).where(eq(releaseLanguages.releaseId, source.id)).all();
  const formats = shippedFormats(source.formats);
  // Byte-identical files: the same digests, under the new tag (docs/delivery.md "Manifests").
  const sourceBasis = await basisOf(db, dataDir, source);
  if (!sourceBasis) throw conflict("the release's files are gone");
  const publicId = newId("rel");
  let staging: ReleaseStaging | undefined = await ReleaseStaging.create(dataDir, publicId);
  try {
    for (const lang of languages) {
      for (const format of formats) {
        await staging.write(bundleFileName(lang.code, format), await readFile(bundlePath(dataDir, source.publicId, lang.code, format)));
      }
    }
    // Every publish target holds the copy before the release exists, as for a publish
    // (docs/architecture.md "Publish targets").
    await deps.targets.take({ publicId, dir: staging.path });
    staging = undefined;
    let row: ReleaseRow;
    try {
      row = db.transaction(
        (tx) => {
          // Checked again inside the write: the source may have gone, or the tag been taken, meanwhile.
          findRelease(tx as unknown as Db, project, sourcePublicId);
          assertTagFree(tx as unknown as Db, project, tag);
          const now = clock.now();
          const created = tx
            .insert(releases)
            .values({
              publicId,
              projectId: project.id,
              name,
              tag,
              status: "published",
              slug: newSlug(),
              createdBy: userId,
              createdAt: now,
              publishedAt: nextPublishedAt(tx as unknown as Db, project.id, now),
              forced: source.forced,
              formats: [...formats],
              republishedFrom: source.publicId,
              manifest: JSON.stringify({ tag, files: sourceBasis.files }),
            })
            .returning()
            .get();
          if (languages.length > 0) {
            tx.insert(releaseLanguages)
              .values(languages.map((l) => ({ releaseId: created.id, code: l.code, name: l.name, isBaseLanguage: l.isBaseLanguage })))
              .run();
          }
          // A new release that is published at once: created, then published, as a draft published
          // straight away would announce it (docs/interface.md §6).
          changes.event(project, "release_created", { release_id: publicId, name, tag, status: "draft" });
          changes.event(project, "release_published", { release_id: publicId, name, tag, status: "published" });
          changes.paths.releasePublished(project.id, created.id);
          recordAudit(db, clock, by, {
            action: "release_republished",
            target: { kind: "release", id: publicId, name },
            projectId: project.id,
            details: { republished_from: source.publicId, tag },
          });
          return created;
        },
        { behavior: "immediate" },
      );
    } catch (err) {
      await deps.targets.drop(publicId);
      throw err;
    }
    changes.notify(project.id);
    log.info("release republished", { release_id: row.publicId, republished_from: source.publicId, languages: languages.length });
    return row;
  } finally {
    if (staging) await staging.discard();
  }
}
