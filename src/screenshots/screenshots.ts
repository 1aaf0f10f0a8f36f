import { and, asc, count, eq, inArray } from "drizzle-orm";
import { findKey } from "../authoring/keys.ts";
import { iso } from "../common/clock.ts";
import { badRequest, conflict, invalidField, invalidQueryParameter, notFound } from "../common/errors.ts";
import { sha256Hex } from "../common/hash.ts";
import { newId } from "../common/ids.ts";
import { hasControlCharacters } from "../common/text.ts";
import type { Clock } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { screenshotKeys, screenshots, translationKeys, type ProjectRow, type ScreenshotRow } from "../storage/schema.ts";
import { SCREENSHOTS_PER_PROJECT_MAX, type Box, type ScreenshotKeysInput } from "./model.ts";
import { sniffImage } from "./sniff.ts";

/**
 * Screenshots of an app and the keys each shows (docs/translators.md "Screenshots"). Images are
 * kept as blobs in the database (docs/decisions.md "Screenshots in the database"), served only to
 * readers of the project with their sniffed type, never by the CDN.
 */
export interface ScreenshotKeyView {
  key_id: string;
  key: string;
  box: Box | null;
}

export interface ScreenshotView {
  id: string;
  name: string;
  width: number;
  height: number;
  content_type: string;
  /** Where the image is served, for readers of the project. */
  url: string;
  /** SHA-256 of the image, hex: a client that has the same file need not send it again. */
  sha256: string;
  keys: ScreenshotKeyView[];
  updated_at: string;
}

/** Where `GET .../screenshots/:sid/image` is, under the public URL. */
export function imageUrl(publicUrl: string, project: ProjectRow, screenshotId: string): string {
  return `${publicUrl}/dashboard/api/projects/${project.publicId}/screenshots/${screenshotId}/image`;
}

function keysOf(db: Db, ids: number[]): Map<number, ScreenshotKeyView[]> {
  const out = new Map<number, ScreenshotKeyView[]>();
  if (ids.length === 0) return out;
  const rows = db
    .select({ sid: screenshotKeys.screenshotId, keyId: translationKeys.publicId, key: translationKeys.key, x: screenshotKeys.x, y: screenshotKeys.y, width: screenshotKeys.width, height: screenshotKeys.height })
    .from(screenshotKeys)
    .innerJoin(translationKeys, eq(translationKeys.id, screenshotKeys.keyId))
    .where(inArray(screenshotKeys.screenshotId, ids))
    .orderBy(asc(translationKeys.key))
    .all();
  for (const r of rows) {
    const box = r.x === null || r.y === null || r.width === null || r.height === null ? null : { x: r.x, y: r.y, width: r.width, height: r.height };
    out.set(r.sid, [...(out.get(r.sid) ?? []), { key_id: r.keyId, key: r.key, box }]);
  }
  return out;
}

type Listed = Omit<ScreenshotRow, "image">;
const LISTED = {
  id: screenshots.id,
  publicId: screenshots.publicId,
  projectId: screenshots.projectId,
  name: screenshots.name,
  contentType: screenshots.contentType,
  width: screenshots.width,
  height: screenshots.height,
  bytes: screenshots.bytes,
  sha256: screenshots.sha256,
  createdAt: screenshots.createdAt,
  updatedAt: screenshots.updatedAt,
};

function view(publicUrl: string, project: ProjectRow, row: Listed, keys: ScreenshotKeyView[]): ScreenshotView {
  return {
    id: row.publicId,
    name: row.name,
    width: row.width,
    height: row.height,
    content_type: row.contentType,
    url: imageUrl(publicUrl, project, row.publicId),
    sha256: row.sha256,
    keys,
    updated_at: iso(row.updatedAt),
  };
}

export function listScreenshots(db: Db, publicUrl: string, project: ProjectRow): { items: ScreenshotView[] } {
  const rows = db.select(LISTED).from(screenshots).where(eq(screenshots.projectId, project.id)).orderBy(asc(screenshots.name)).all();
  const keys = keysOf(db, rows.map((r) => r.id));
  return { items: rows.map((r) => view(publicUrl, project, r, keys.get(r.id) ?? [])) };
}

function findScreenshot(db: Db, project: ProjectRow, publicId: string): Listed {
  const row = db.select(LISTED).from(screenshots).where(and(eq(screenshots.projectId, project.id), eq(screenshots.publicId, publicId))).get();
  if (!row) throw notFound("screenshot not found");
  return row;
}

export function getScreenshot(db: Db, publicUrl: string, project: ProjectRow, publicId: string): ScreenshotView {
  const row = findScreenshot(db, project, publicId);
  return view(publicUrl, project, row, keysOf(db, [row.id]).get(row.id) ?? []);
}

/** A screenshot's name: given, not blank, no control characters nor slashes (it names a file in `screenshots push`). */
function cleanName(raw: string | undefined): string {
  const name = raw?.trim() ?? "";
  if (name === "") throw invalidQueryParameter("name", "required: the screenshot's name");
  if (hasControlCharacters(name) || /[/\\]/.test(name)) throw invalidQueryParameter("name", "must not contain control characters or slashes");
  return name;
}

export interface Uploaded {
  screenshot: ScreenshotView;
  /** `created`, `replaced` (a new image under a known name: its keys kept) or `unchanged` (the same bytes again). */
  outcome: "created" | "replaced" | "unchanged";
}

/**
 * Stores an image under `name` (docs/translators.md "Screenshots"): its type sniffed from the
 * bytes and the type it was sent as must agree; the same name again replaces the image and keeps
 * its keys; the same bytes again change nothing.
 */
export function uploadScreenshot(db: Db, clock: Clock, publicUrl: string, project: ProjectRow, rawName: string | undefined, declared: string | null, bytes: Uint8Array): Uploaded {
  const name = cleanName(rawName);
  const image = sniffImage(bytes);
  const sent = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  if (sent !== image.type) throw badRequest(`invalid image: sent as ${sent || "no type"} but the bytes are ${image.type} (a wrong file extension?)`);
  const sha256 = sha256Hex(bytes);
  const now = clock.now();
  const outcome = db.transaction((): Uploaded["outcome"] => {
    const known = db.select(LISTED).from(screenshots).where(and(eq(screenshots.projectId, project.id), eq(screenshots.name, name))).get();
    if (known?.sha256 === sha256) return "unchanged";
    const values = { contentType: image.type, width: image.width, height: image.height, bytes: bytes.byteLength, sha256, image: Buffer.from(bytes), updatedAt: now };
    if (known) {
      db.update(screenshots).set(values).where(eq(screenshots.id, known.id)).run();
      // Boxes past the new image's edges no longer say where anything is.
      for (const link of db.select().from(screenshotKeys).where(eq(screenshotKeys.screenshotId, known.id)).all()) {
        if (link.x === null || link.y === null || link.width === null || link.height === null) continue;
        if (link.x + link.width <= image.width && link.y + link.height <= image.height) continue;
        db.update(screenshotKeys)
          .set({ x: null, y: null, width: null, height: null })
          .where(and(eq(screenshotKeys.screenshotId, known.id), eq(screenshotKeys.keyId, link.keyId)))
          .run();
      }
      return "replaced";
    }
    const held = db.select({ n: count() }).from(screenshots).where(eq(screenshots.projectId, project.id)).get()!.n;
    if (held >= SCREENSHOTS_PER_PROJECT_MAX) throw conflict(`the project holds ${SCREENSHOTS_PER_PROJECT_MAX.toLocaleString("en-US")} screenshots, its most`);
    db.insert(screenshots).values({ publicId: newId("scr"), projectId: project.id, name, ...values, createdAt: now }).run();
    return "created";
  });
  const row = db.select(LISTED).from(screenshots).where(and(eq(screenshots.projectId, project.id), eq(screenshots.name, name))).get()!;
  return { screenshot: view(publicUrl, project, row, keysOf(db, [row.id]).get(row.id) ?? []), outcome };
}

/** Replaces the keys a screenshot shows; each key must be the project's, each box inside the image. */
export function setScreenshotKeys(db: Db, publicUrl: string, project: ProjectRow, publicId: string, input: ScreenshotKeysInput): ScreenshotView {
  const shot = findScreenshot(db, project, publicId);
  const links = new Map<number, Box | null>();
  input.keys.forEach(({ key, box }, i) => {
    const row = db.select({ id: translationKeys.id }).from(translationKeys).where(and(eq(translationKeys.projectId, project.id), eq(translationKeys.key, key))).get();
    if (!row) throw invalidField(`keys.${i}.key`, `${JSON.stringify(key.slice(0, 80))} is not a key of this project`);
    if (links.has(row.id)) throw invalidField(`keys.${i}.key`, `${JSON.stringify(key.slice(0, 80))} is listed twice`);
    if (box) {
      if (box.width === 0 || box.height === 0) throw invalidField(`keys.${i}.box`, "must have a width and a height");
      if (box.x + box.width > shot.width || box.y + box.height > shot.height) throw invalidField(`keys.${i}.box`, `reaches past the image (${shot.width} x ${shot.height} pixels)`);
    }
    links.set(row.id, box ?? null);
  });
  db.transaction(() => {
    db.delete(screenshotKeys).where(eq(screenshotKeys.screenshotId, shot.id)).run();
    for (const [keyId, box] of links) db.insert(screenshotKeys).values({ screenshotId: shot.id, keyId, x: box?.x ?? null, y: box?.y ?? null, width: box?.width ?? null, height: box?.height ?? null }).run();
  });
  return getScreenshot(db, publicUrl, project, publicId);
}

export function deleteScreenshot(db: Db, project: ProjectRow, publicId: string): void {
  const shot = findScreenshot(db, project, publicId);
  db.transaction(() => db.delete(screenshots).where(eq(screenshots.id, shot.id)).run());
}

/** The screenshots that show a key, each with the key's box. */
export function keyScreenshots(db: Db, publicUrl: string, project: ProjectRow, keyPublicId: string): { items: (Omit<ScreenshotView, "keys"> & { box: Box | null })[] } {
  const key = findKey(db, project, keyPublicId);
  const rows = db
    .select({ shot: LISTED, x: screenshotKeys.x, y: screenshotKeys.y, width: screenshotKeys.width, height: screenshotKeys.height })
    .from(screenshotKeys)
    .innerJoin(screenshots, eq(screenshots.id, screenshotKeys.screenshotId))
    .where(eq(screenshotKeys.keyId, key.id))
    .orderBy(asc(screenshots.name))
    .all();
  return {
    items: rows.map((r) => {
      const { keys: _, ...shot } = view(publicUrl, project, r.shot, []);
      const box = r.x === null || r.y === null || r.width === null || r.height === null ? null : { x: r.x, y: r.y, width: r.width, height: r.height };
      return { ...shot, box };
    }),
  };
}

/** The image itself, for `GET .../image`. */
export function screenshotImage(db: Db, project: ProjectRow, publicId: string): { bytes: Uint8Array; contentType: string; sha256: string; name: string } {
  const row = db
    .select({ image: screenshots.image, contentType: screenshots.contentType, sha256: screenshots.sha256, name: screenshots.name })
    .from(screenshots)
    .where(and(eq(screenshots.projectId, project.id), eq(screenshots.publicId, publicId)))
    .get();
  if (!row) throw notFound("screenshot not found");
  return { bytes: new Uint8Array(row.image), contentType: row.contentType, sha256: row.sha256, name: row.name };
}
