import { readFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import { badRequest, conflict, HttpError } from "../common/errors.ts";
import type { Db } from "../storage/db.ts";
import { bundlePath } from "../bundles/layout.ts";
import { exportBuilder } from "../formats/export.ts";
import { formatNamed, isBundleFormat, isMultiLanguage } from "../formats/registry.ts";
import { releaseLanguages, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import type { ExportQuery } from "./model.ts";

/**
 * The dashboard's export (docs/formats.md "Export"): a published release's strings as a file of
 * any format, built from the files the release wrote at publish (its JSON per language and the
 * base language's ARB), as `phrasebook pull` builds it from the CDN. A draft has no files yet.
 */
export interface ExportFile {
  name: string;
  contentType: string;
  body: string;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new HttpError(500, `a file of the release is missing or damaged on the server (${(err as NodeJS.ErrnoException).code ?? "unreadable"}); publish the release again`);
  }
}

function readJson(path: string): Record<string, unknown> {
  const text = readText(path);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new HttpError(500, "a file of the release is damaged on the server (not JSON); publish the release again");
  }
}

export function exportRelease(db: Db, dataDir: string, project: ProjectRow, release: ReleaseRow, { format: name, ...query }: ExportQuery): ExportFile {
  if (name === undefined) throw badRequest(`invalid field "format": say which format to export`);
  if (release.status !== "published") throw conflict("the release is a draft: publish it to export its strings");
  const shipped = db.select().from(releaseLanguages).where(eq(releaseLanguages.releaseId, release.id)).orderBy(asc(releaseLanguages.code)).all();
  const base = shipped.find((l) => l.isBaseLanguage) ?? shipped[0];
  if (!base) throw conflict("the release has no languages");
  let codes: string[];
  if (query.language === undefined) {
    if (!isMultiLanguage(name) || (name === "xliff" && query.xliff_version === "2.0")) {
      throw badRequest(`invalid field "language": a ${name} file holds one language; say which (${shipped.map((l) => l.code).join(", ")})`);
    }
    const others = shipped.filter((l) => l.code !== base.code).map((l) => l.code);
    codes = name === "xliff" ? (others.length > 0 ? others : [base.code]) : shipped.map((l) => l.code);
  } else {
    const found = shipped.find((l) => l.code.toLowerCase() === query.language!.toLowerCase());
    if (!found) throw badRequest(`invalid field "language": the release has no language ${query.language} (it has ${shipped.map((l) => l.code).join(", ")})`);
    codes = [found.code];
  }
  const format = formatNamed(name);
  const stem = `${project.name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "strings"}-${release.tag.replace(/[^A-Za-z0-9._-]+/g, "-")}`;
  const fileName = `${stem}${codes.length === 1 ? `-${codes[0]}` : ""}.${format.extensions[0]}`;
  // A bundle format's file is the release's own, as the CDN serves it: built again from the JSON,
  // an ARB lacked the placeholder attributes its CDN file carries (docs/formats.md "Export").
  if (isBundleFormat(name) && codes.length === 1) return { name: fileName, contentType: format.contentType, body: readText(bundlePath(dataDir, release.publicId, codes[0]!, name)) };
  const json = new Map<string, Record<string, unknown>>();
  for (const l of new Set([base.code, ...codes])) json.set(l, readJson(bundlePath(dataDir, release.publicId, l, "json")));
  const baseArb = readJson(bundlePath(dataDir, release.publicId, base.code, "arb"));
  const body = exportBuilder({ base: base.code, json, baseArb }).write(name, codes, { xliffVersion: query.xliff_version ?? "1.2" });
  return { name: fileName, contentType: format.contentType, body };
}
