/**
 * Screenshots (docs/translators.md "Screenshots"): PNG, JPEG or WebP up to 5 MB, the
 * type sniffed from the bytes and the size read from the header; anything else refused; served
 * only to readers with its sniffed type and `nosniff`; keys linked with their boxes; the same name
 * replaces, the same bytes change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCREENSHOT_MAX_BYTES } from "../../src/screenshots/limits.ts";
import { sniffImage } from "../../src/screenshots/sniff.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { concat, JPEG, PNG, pngOf, text, textChunk, WEBP, webpOf } from "./images.ts";

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

describe("translators.md: what a screenshot may not be", () => {
  test("an image bomb: a PNG of a few hundred bytes declaring 100,000 x 100,000 pixels, refused from its header", async () => {
    const bomb = pngOf(100_000, 100_000);
    expect(bomb.length).toBeLessThan(2000);
    const r = await upload("bomb", bomb, "image/png");
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid image: 100000 x 100000 pixels; a side may have at most 16,384");
    expect((await upload("tall", webpOf("VP8X", 100, 20_000), "image/webp")).body.error).toContain("100 x 20000 pixels");
    expect((await upload("wide", webpOf("VP8X", 16_385, 10), "image/webp")).body.error).toContain("16385 x 10 pixels");
    expect((await upload("edge", pngOf(16_384, 1), "image/png")).status).toBe(201);
  });

  test("polyglots: a file after the image's end, markup inside it", async () => {
    const cases: [Uint8Array<ArrayBuffer>, string, string][] = [
      [concat(PNG, text("<html><script>alert(1)</script></html>")), "image/png", "follow the PNG's end (IEND)"],
      [concat(JPEG, text("PK\u0003\u0004zip")), "image/jpeg", "does not end with its end-of-image marker"],
      [pngOf(10, 10, [textChunk("<script>alert(document.cookie)</script>")]), "image/png", "holds HTML or SVG markup"],
      [concat(WEBP, text("<svg onload=alert(1)>")), "image/webp", "RIFF size is not the file's"],
    ];
    for (const [bytes, type, words] of cases) {
      const r = await upload("polyglot", bytes, type);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error: expect.stringContaining(words) });
    }
  });

  test("SVG, GIF, HTML: refused by the bytes, whatever they are sent as; an SVG type is not even read", async () => {
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
    expect((await upload("svg", svg, "image/png")).body.error).toBe("invalid image: an SVG or XML document: a screenshot is a PNG, JPEG or WebP image");
    expect((await upload("svg", svg, "image/svg+xml")).status).toBe(415);
    expect((await upload("gif", text("GIF89a\u0001\u0000\u0001\u0000"), "image/png")).body.error).toContain("a GIF");
    expect((await upload("html", text("<!doctype html><p>hi"), "image/jpeg")).body.error).toContain("markup");
  });

  test("a wrong type: JPEG bytes sent as a PNG (a file named .png) are refused", async () => {
    expect((await upload("wrong", JPEG, "image/png")).body.error).toBe("invalid image: sent as image/png but the bytes are image/jpeg (a wrong file extension?)");
  });

  test("more than 5 MB: 413 before it is read; no name: 400", async () => {
    const res = await t.fetch(`/dashboard/api/projects/${pid}/screenshots?name=big`, {
      method: "POST",
      headers: { cookie: admin.cookie, "x-csrf-token": admin.csrf, "content-type": "image/png", "content-length": String(SCREENSHOT_MAX_BYTES + 1) },
      body: PNG,
    });
    expect(res.status).toBe(413);
    expect((await admin.upload("POST", `/projects/${pid}/screenshots`, PNG, "image/png")).body.error).toContain('invalid query parameter "name": required');
  });

  test("nothing refused was stored", () => {
    expect(t.query<{ name: string }>("SELECT name FROM screenshots ORDER BY name").map((r) => r.name)).toEqual(["cart", "cart-jpeg", "edge"]);
  });

  test("sniffing reads every format's size the same way the fixtures declare it", () => {
    expect(sniffImage(PNG)).toEqual({ type: "image/png", width: 320, height: 200 });
    expect(sniffImage(JPEG)).toEqual({ type: "image/jpeg", width: 320, height: 200 });
    expect(sniffImage(WEBP)).toEqual({ type: "image/webp", width: 320, height: 200 });
    expect(sniffImage(webpOf("VP8L", 321, 201))).toEqual({ type: "image/webp", width: 321, height: 201 });
    expect(sniffImage(webpOf("VP8X", 1000, 2000))).toEqual({ type: "image/webp", width: 1000, height: 2000 });
  });
});
