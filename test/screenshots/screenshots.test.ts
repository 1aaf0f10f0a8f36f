/**
 * Screenshots (docs/translators.md "Screenshots"): PNG, JPEG or WebP up to 5 MB, the
 * type sniffed from the bytes and the size read from the header; anything else refused; served
 * only to readers with its sniffed type and `nosniff`; keys linked with their boxes; the same name
 * replaces, the same bytes change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { JPEG, PNG, pngOf, WEBP } from "./images.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Shop", "en", ["de"]);
  keys.title = await admin.key(pid, "checkout.title", { en: "Checkout" });
  keys.empty = await admin.key(pid, "cart.empty", { en: "Your cart is empty" });
});
afterAll(() => t.close());

const upload = (name: string, bytes: Uint8Array<ArrayBuffer>, type: string, who = admin) => who.upload("POST", `/projects/${pid}/screenshots?name=${encodeURIComponent(name)}`, bytes, type);

describe("translators.md: screenshots", () => {
  test("PNG, JPEG and WebP: stored with the size their header gives", async () => {
    for (const [name, bytes, type] of [["cart", PNG, "image/png"], ["cart-jpeg", JPEG, "image/jpeg"], ["cart-webp", WEBP, "image/webp"]] as const) {
      const r = await upload(name, bytes, type);
      expect(r.status).toBe(201);
      const url = `http://localhost:8080/dashboard/api/projects/${pid}/screenshots/${r.body.id}/image`;
      expect(r.body).toMatchObject({ id: expect.stringMatching(/^scr_/), name, width: 320, height: 200, content_type: type, keys: [], outcome: "created" });
      expect(r.body.url).toBe(url);
    }
  });

  test("served to readers only, as the type sniffed, with nosniff", async () => {
    const shot = (await admin.get(`/projects/${pid}/screenshots`)).body.items.find((s: any) => s.name === "cart");
    const path = new URL(shot.url).pathname.replace("/dashboard/api", "");
    const res = await t.fetch(`/dashboard/api${path}`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    expect((await t.fetch(`/dashboard/api${path}`)).status).toBe(401);
    const etag = res.headers.get("etag")!;
    expect((await t.fetch(`/dashboard/api${path}`, { headers: { cookie: admin.cookie, "if-none-match": etag } })).status).toBe(304);
  });

  test("keys linked with their boxes; a key's screenshots carry its box", async () => {
    const shot = (await admin.get(`/projects/${pid}/screenshots`)).body.items.find((s: any) => s.name === "cart");
    const r = await admin.put(`/projects/${pid}/screenshots/${shot.id}/keys`, { keys: [{ key: "checkout.title", box: { x: 20, y: 20, width: 280, height: 40 } }, { key: "cart.empty" }] });
    expect(r.status).toBe(200);
    expect(r.body.keys).toEqual([
      { key_id: keys.empty, key: "cart.empty", box: null },
      { key_id: keys.title, key: "checkout.title", box: { x: 20, y: 20, width: 280, height: 40 } },
    ]);
    const mine = await admin.get(`/projects/${pid}/keys/${keys.title}/screenshots`);
    expect(mine.body.items).toEqual([expect.objectContaining({ id: shot.id, name: "cart", width: 320, height: 200, box: { x: 20, y: 20, width: 280, height: 40 } })]);
    expect((await admin.put(`/projects/${pid}/screenshots/${shot.id}/keys`, { keys: [{ key: "checkout.title", box: { x: 300, y: 0, width: 40, height: 10 } }] })).body.error).toBe(
      'invalid field "keys.0.box": reaches past the image (320 x 200 pixels)',
    );
    expect((await admin.put(`/projects/${pid}/screenshots/${shot.id}/keys`, { keys: [{ key: "no.such" }] })).body.error).toContain('invalid field "keys.0.key"');
  });

  test("the same name again: the same bytes change nothing, new ones replace the image and keep its keys", async () => {
    const before = t.query<{ n: number }>("SELECT total_changes() AS n")[0]!.n;
    const same = await upload("cart", PNG, "image/png");
    expect(same.status).toBe(200);
    expect(same.body.outcome).toBe("unchanged");
    expect(t.query<{ n: number }>("SELECT total_changes() AS n")[0]!.n).toBe(before);
    const replaced = await upload("cart", pngOf(640, 400), "image/png");
    expect(replaced.body).toMatchObject({ outcome: "replaced", width: 640, height: 400 });
    expect(replaced.body.keys.map((k: any) => k.key)).toEqual(["cart.empty", "checkout.title"]);
  });

  test("deleted: gone from the list and from its keys", async () => {
    const shot = (await admin.get(`/projects/${pid}/screenshots`)).body.items.find((s: any) => s.name === "cart-webp");
    expect((await admin.delete(`/projects/${pid}/screenshots/${shot.id}`)).status).toBe(204);
    expect((await admin.get(`/projects/${pid}/screenshots`)).body.items.map((s: any) => s.name)).toEqual(["cart", "cart-jpeg"]);
  });
});
