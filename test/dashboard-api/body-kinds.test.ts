/**
 * One rule for every kind of body (docs/architecture.md "Bodies", dashboard-api/guards.ts): a
 * route takes JSON, or the content types it declares and nothing else (415); a cookie's request
 * needs this server's Origin and its session's X-CSRF-Token whatever the content type, a bearer
 * token's needs neither; a declared body is read only once the caller may send it to that project,
 * and never past its limit. Shown with a throwaway route that takes images, declared as a binary
 * upload declares itself, beside a JSON route of the same context; and on the real app, a
 * JSON route sent an image.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { toHttpError } from "../../src/common/error-reply.ts";
import { dashboardContext, type Access } from "../../src/dashboard-api/access.ts";
import { DASHBOARD_API_PREFIX, rawBodyMatcher, type RawBody, type RawBodyRoute } from "../../src/dashboard-api/guards.ts";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

const PICTURES: RawBodyRoute<Access> = { method: "POST", path: "/projects/:pid/pictures", types: ["image/png", "image/jpeg", "image/webp"], maxBytes: 256 * 1024, access: "keys" };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const CHUNK = 64 * 1024;

let t: TestApp;
let admin: DashboardClient;
let pid: string;
let writeToken: string;
let readToken: string;
let api: Elysia;
const received: { type: string; bytes: number; project: string }[] = [];

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = (await admin.post("/projects", { name: "Pictures", base_language_code: "en" })).body.id;
  writeToken = (await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).body.token;
  readToken = (await admin.post(`/projects/${pid}/tokens`, { name: "App", scopes: ["read"] })).body.token;
  await admin.post("/users", { email: "nobody@example.test", name: "No Role", password: "password-1", role: "member" });
  api = new Elysia({ prefix: DASHBOARD_API_PREFIX })
    .onError(({ code, error }) => toHttpError(code, error, "test").toResponse())
    .use(dashboardContext(t.deps, () => "127.0.0.1", [PICTURES]))
    .post(
      "/projects/:pid/pictures",
      ({ body, project }) => {
        const raw = body as RawBody;
        received.push({ type: raw.type, bytes: raw.bytes.byteLength, project: project.publicId });
        return { type: raw.type, bytes: raw.bytes.byteLength };
      },
      { access: "keys", inProject: true },
    )
    .post("/projects/:pid/notes", ({ body }) => ({ body }), { access: "keys", inProject: true }) as unknown as Elysia;
});
afterAll(() => t?.close());

/** A body that counts what was taken from it. */
function counted(bytes: number) {
  const counter = { read: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.read >= bytes) return controller.close();
      counter.read += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK));
    },
  });
  return { stream, counter };
}

async function send(path: string, headers: Record<string, string>, body: BodyInit | null): Promise<{ status: number; json: any }> {
  const res = await api.handle(new Request(ORIGIN + DASHBOARD_API_PREFIX + path, { method: "POST", headers, body, duplex: "half" } as RequestInit));
  return { status: res.status, json: await res.json() };
}

const session = (more: Record<string, string> = {}) => ({ cookie: admin.cookie, "x-csrf-token": admin.csrf, ...more });
const bearer = (token: string, more: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...more });

describe("a route that declares its body types", () => {
  test("takes them, from a session with its CSRF token or a bearer token with none, as bytes", async () => {
    received.length = 0;
    expect(await send(`/projects/${pid}/pictures`, session({ "content-type": "image/png" }), PNG)).toEqual({ status: 200, json: { type: "image/png", bytes: PNG.byteLength } });
    expect(await send(`/projects/${pid}/pictures`, bearer(writeToken, { "content-type": "image/webp" }), PNG)).toEqual({ status: 200, json: { type: "image/webp", bytes: PNG.byteLength } });
    expect(received).toEqual([
      { type: "image/png", bytes: PNG.byteLength, project: pid },
      { type: "image/webp", bytes: PNG.byteLength, project: pid },
    ]);
  });

  test("a session without its X-CSRF-Token, or from another site's page, is 403 whatever the content type, before a byte is read", async () => {
    for (const headers of [
      { cookie: admin.cookie, "content-type": "image/png" } as Record<string, string>,
      { cookie: admin.cookie, "x-csrf-token": "not-the-token", "content-type": "image/jpeg" },
      session({ "content-type": "image/png", origin: "https://evil.example" }),
    ]) {
      const { stream, counter } = counted(4 * CHUNK);
      const r = await send(`/projects/${pid}/pictures`, headers, stream);
      expect(r.status).toBe(403);
      expect(counter.read).toBeLessThanOrEqual(CHUNK); // the stream's own read-ahead, nothing consumed
    }
  });

  test("anyone who may not send it is refused before a byte is read: no one, a read token, a user with no role in the project", async () => {
    const other = await t.login("nobody@example.test", "password-1");
    for (const [headers, status] of [
      [{ "content-type": "image/png" }, 401],
      [bearer(readToken, { "content-type": "image/png" }), 403],
      [{ cookie: other.cookie, "x-csrf-token": other.csrf, "content-type": "image/png" }, 404],
    ] as const) {
      const { stream, counter } = counted(4 * CHUNK);
      expect((await send(`/projects/${pid}/pictures`, headers, stream)).status).toBe(status);
      expect(counter.read).toBeLessThanOrEqual(CHUNK);
    }
  });

  test("any other content type is 415 naming the ones it takes: JSON, a form, text, another image", async () => {
    for (const type of ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "image/gif", ""]) {
      const r = await send(`/projects/${pid}/pictures`, session(type ? { "content-type": type } : {}), PNG);
      expect(r.status, type).toBe(415);
      expect(r.json.error).toStartWith("request body must be one of image/png, image/jpeg, image/webp");
    }
  });

  test("over its limit: 413 by Content-Length before anything is read, or once the bytes pass it", async () => {
    const declared = counted(8 * CHUNK);
    const byLength = await send(`/projects/${pid}/pictures`, session({ "content-type": "image/png", "content-length": String(PICTURES.maxBytes + 1) }), declared.stream);
    expect(byLength).toEqual({ status: 413, json: { error: "request body is larger than 256 KB, the limit of this route" } });
    expect(declared.counter.read).toBeLessThanOrEqual(CHUNK);
    const streamed = counted(16 * CHUNK);
    expect((await send(`/projects/${pid}/pictures`, session({ "content-type": "image/png" }), streamed.stream)).status).toBe(413);
    expect(streamed.counter.read).toBeLessThanOrEqual(PICTURES.maxBytes + 2 * CHUNK);
  });

  test("a route cannot declare JSON or a type another site's form or no-cors fetch can send", () => {
    for (const type of ["text/plain", "multipart/form-data", "application/x-www-form-urlencoded", "application/json", "Image/PNG", "image/png; q=1"]) {
      expect(() => rawBodyMatcher([{ ...PICTURES, types: [type] }]), type).toThrow("cannot declare the body type");
    }
  });
});

describe("every other route takes JSON only", () => {
  test("the throwaway context's JSON route, sent an image: 415, the image unread", async () => {
    const { stream, counter } = counted(4 * CHUNK);
    const r = await send(`/projects/${pid}/notes`, session({ "content-type": "image/png" }), stream);
    expect(r).toEqual({ status: 415, json: { error: "request body must be JSON (Content-Type: application/json), not image/png" } });
    expect(counter.read).toBeLessThanOrEqual(CHUNK);
    expect((await send(`/projects/${pid}/notes`, session({ "content-type": "application/json" }), '{"a":1}')).json).toEqual({ body: { a: 1 } });
  });

  test("the app's own routes, sent an image or XML: 415 (a translation, an import)", async () => {
    const key = (await admin.post(`/projects/${pid}/keys`, { key: "greeting" })).body.id;
    for (const [method, path, type] of [
      ["PUT", `/projects/${pid}/keys/${key}/translations/en`, "image/png"],
      ["POST", `/projects/${pid}/import`, "application/xml"],
      ["POST", `/projects/${pid}/import`, "image/png"],
    ] as const) {
      const res = await t.fetch(`${DASHBOARD_API_PREFIX}${path}`, { method, headers: session({ "content-type": type }), body: "<tmx/>" });
      expect(res.status, `${method} ${path} ${type}`).toBe(415);
    }
  });

  test("JSON with its charset named, as many HTTP libraries send it, is JSON (the media type decides)", async () => {
    const key = (await admin.post(`/projects/${pid}/keys`, { key: "charset" })).body.id;
    const put = (type: string) =>
      t.fetch(`${DASHBOARD_API_PREFIX}/projects/${pid}/keys/${key}/translations/en`, { method: "PUT", headers: session({ "content-type": type }), body: JSON.stringify({ value: "Grüße" }) });
    for (const type of ["application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON"]) {
      const res = await put(type);
      expect(res.status, type).toBe(200);
      expect((await res.json()).value).toBe("Grüße");
    }
  });
});
