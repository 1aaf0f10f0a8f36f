import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES, ScreenshotKeysInput, ScreenshotUploadQuery } from "../screenshots/model.ts";
import { deleteScreenshot, keyScreenshots, listScreenshots, screenshotImage, setScreenshotKeys, uploadScreenshot } from "../screenshots/screenshots.ts";
import type { Access, DashboardContext } from "./access.ts";
import type { RawBody, RawBodyRoute } from "./guards.ts";

/** An image is the body of an upload (docs/architecture.md "Adding a binary upload"). */
export const SCREENSHOT_BODY: RawBodyRoute<Access> = { method: "POST", path: "/projects/:pid/screenshots", types: SCREENSHOT_TYPES, maxBytes: SCREENSHOT_MAX_BYTES, access: "keys" };

/**
 * Screenshots (docs/translators.md "Screenshots"): seen by readers of the project, uploaded,
 * linked to keys and deleted by developers and write tokens. The image is served here only, to
 * readers, with the type sniffed from its bytes and `nosniff`; never by the CDN.
 */
export function screenshotRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, clock, settings } = deps;
  const { publicUrl } = settings;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/screenshots", ({ project }) => listScreenshots(db, publicUrl, project), { access: "read", inProject: true })
    .post(
      "/projects/:pid/screenshots",
      ({ project, body, query, status }) => {
        const { type, bytes } = body as RawBody;
        const { screenshot, outcome } = uploadScreenshot(db, clock, publicUrl, project, query.name, type, bytes);
        return status(outcome === "created" ? 201 : 200, { ...screenshot, outcome });
      },
      { access: SCREENSHOT_BODY.access, inProject: true, query: ScreenshotUploadQuery },
    )
    .get(
      "/projects/:pid/screenshots/:sid/image",
      ({ project, params, set, request }) => {
        const image = screenshotImage(db, project, params.sid);
        const etag = `"${image.sha256.slice(0, 32)}"`;
        set.headers["content-type"] = image.contentType;
        set.headers["x-content-type-options"] = "nosniff";
        set.headers["content-security-policy"] = "default-src 'none'; sandbox";
        set.headers["cache-control"] = "private, no-cache";
        set.headers.etag = etag;
        if (request.headers.get("if-none-match") === etag) {
          set.status = 304;
          return "";
        }
        return new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.contentType });
      },
      { access: "read", inProject: true },
    )
    .put("/projects/:pid/screenshots/:sid/keys", ({ project, params, body }) => setScreenshotKeys(db, publicUrl, project, params.sid, body), {
      access: "keys",
      inProject: true,
      body: ScreenshotKeysInput,
    })
    .delete(
      "/projects/:pid/screenshots/:sid",
      ({ project, params, status }) => {
        deleteScreenshot(db, project, params.sid);
        return status(204);
      },
      { access: "keys", inProject: true },
    )
    .get("/projects/:pid/keys/:keyId/screenshots", ({ project, params }) => keyScreenshots(db, publicUrl, project, params.keyId), { access: "read", inProject: true });
}
