/**
 * What a screenshot may not be (docs/translators.md "Screenshots"): an image bomb, a polyglot, SVG,
 * GIF or HTML, a type other than the one sent, a file cut short or with lengths past its end, more
 * than 5 MB. Each refused from its bytes, before anything is decoded (nothing ever is), and
 * nothing refused stored.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCREENSHOT_MAX_BYTES } from "../../src/screenshots/limits.ts";
import { sniffImage } from "../../src/screenshots/sniff.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { concat, JPEG, PNG, pngOf, text, textChunk, WEBP, webpOf } from "../screenshots/images.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Shop", "en", ["de"]);
});
afterAll(() => t.close());

const upload = (name: string, bytes: Uint8Array<ArrayBuffer>, type: string) => admin.upload("POST", `/projects/${pid}/screenshots?name=${encodeURIComponent(name)}`, bytes, type);

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

  test("lengths past the end and files cut short: refused, never read past the end", async () => {
    const chunkPastEnd = PNG.slice(0, 60);
    new DataView(chunkPastEnd.buffer).setUint32(33, 0xffffffff); // the chunk after IHDR claims 4 GB
    const cases: [Uint8Array<ArrayBuffer>, string, string][] = [
      [chunkPastEnd, "image/png", "runs past the end of the file"],
      [PNG.slice(0, PNG.length - 12), "image/png", "no IEND"],
      [JPEG.slice(0, 200), "image/jpeg", "end-of-image marker"],
      [concat(new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff]), new Uint8Array(12), new Uint8Array([0xff, 0xd9])), "image/jpeg", "65535 x 65535 pixels"],
      [WEBP.slice(0, 20), "image/webp", "too short"],
      [new Uint8Array(0), "image/png", "request body is empty"],
    ];
    for (const [bytes, type, words] of cases) {
      const r = await upload("broken", bytes, type);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error: expect.stringContaining(words) });
    }
  });

  test("nothing refused was stored", () => {
    expect(t.query<{ name: string }>("SELECT name FROM screenshots ORDER BY name").map((r) => r.name)).toEqual(["edge"]);
  });

  test("sniffing reads every format's size the same way the fixtures declare it", () => {
    expect(sniffImage(PNG)).toEqual({ type: "image/png", width: 320, height: 200 });
    expect(sniffImage(JPEG)).toEqual({ type: "image/jpeg", width: 320, height: 200 });
    expect(sniffImage(WEBP)).toEqual({ type: "image/webp", width: 320, height: 200 });
    expect(sniffImage(webpOf("VP8L", 321, 201))).toEqual({ type: "image/webp", width: 321, height: 201 });
    expect(sniffImage(webpOf("VP8X", 1000, 2000))).toEqual({ type: "image/webp", width: 1000, height: 2000 });
  });
});
