/**
 * Path tricks against the CDN (product §1, interface §4.5). The request lines must reach the server
 * exactly as written, which `fetch` and `Request` never do (they resolve `..` and some escapes
 * first), so they go over a socket (test/cdn/raw-http.ts) to the in-process app listening on
 * loopback (test/helpers/listen.ts): Bun's HTTP parser is part of what is checked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseCdnPath } from "../../src/cdn/paths.ts";
import { listen, type Listening } from "../helpers/listen.ts";
import { cdnFixture, importJson, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";
import { rawRequest } from "./raw-http.ts";

const SECRET = "TOP-SECRET-NEVER-SERVED";
let h: CdnFixture;
let server: Listening;
let slug: string;
let release: any;

beforeAll(async () => {
  h = await cdnFixture();
  server = listen(h.t);
  const pid = await h.admin.project("Tricks", "en");
  await importJson(h.admin, pid, "en", { a: "A" });
  release = await publish(h.admin, pid, "v1");
  slug = await projectSlug(h.admin, pid);
  // product §1: the data dir may hold unrelated files, which are never served. Plant some,
  // including ones named like bundles inside and beside the release folder.
  writeFileSync(join(h.t.dataDir, "secret.json"), SECRET);
  writeFileSync(join(h.t.dataDir, "releases", release.id, "xx.json"), SECRET);
  mkdirSync(join(h.t.dataDir, "releases", "latest"), { recursive: true });
  writeFileSync(join(h.t.dataDir, "releases", "latest", "en.json"), SECRET);
});
afterAll(async () => {
  await server?.stop();
  await h.t.close();
});

describe("path tricks (product §1)", () => {
  test("product §1 / interface §4.5: traversal, encodings, NUL, odd lengths and unknown extensions never reach outside the release files or answer 5xx", async () => {
    const p = `/cdn/p/${slug}/r/${release.slug}`;
    const targets = [
      `${p}/en.json`, // the control: served
      `${p}/../../../secret.json`,
      `${p}/..%2f..%2f..%2fsecret.json`,
      `${p}/%2e%2e/%2e%2e/secret.json`,
      `/cdn/p/${slug}/r/latest/../${release.slug}/en.json`,
      `/cdn/p/${slug}/r/${release.slug}%2fen.json`,
      `/cdn/p/${slug}%2Fr%2Flatest%2Fen.json`,
      `${p}/en.json%00.png`,
      `${p}/en%00.json`,
      `${p}/xx.json`,
      `${p}/en.json.gz`,
      `${p}/en.json.br`,
      `${p}/en.JSON`,
      `${p}/en.txt`,
      `${p}/en.`,
      `${p}/en`,
      `${p}/.json`,
      `${p}/`,
      `${p}`,
      `/cdn/p/${slug}/r/latest/en.json/`,
      `/cdn/p/${slug}/r/latest//en.json`,
      `/cdn/p/${slug}x/r/latest/en.json`,
      `/cdn/p/${slug.slice(1)}/r/latest/en.json`,
      `/cdn/p/${slug}/r/${release.slug}0/en.json`,
      `/cdn/p/${slug}/r/LATEST/en.json`,
      `/cdn/p/${slug}/r/latest/${"a".repeat(5000)}.json`,
      `/cdn/p/${slug}/r/latest/en.json?x=${"y".repeat(3000)}`,
      `/cdn/p/${slug}/r/latest/%ff%fe.json`,
      `/cdn/p/${slug}/r/latest/\u00e9n.json`,
      `/cdn/p/${slug}/r/latest/secret.json`,
      `/cdn/../secret.json`,
      `/cdn/p/../../phrasebook.db`,
      `/cdn/releases/${release.id}/en.json`,
      `/cdn/p/${slug}/r/latest/../../../../phrasebook.db`,
      `/cdn//p/${slug}/r/latest/en.json`,
      `/cdn`,
      `/cdn/`,
      `/cdnx/p/${slug}/r/latest/en.json`,
    ];
    const served: string[] = [];
    for (const target of targets) {
      const res = await rawRequest(server.port, target);
      expect(res.status, target).toBeGreaterThanOrEqual(200);
      expect(res.status, target).toBeLessThan(500);
      expect(res.text, target).not.toContain(SECRET);
      expect(res.text, target).not.toContain("SQLite format");
      if (res.status === 200) served.push(target);
    }
    // Only the exact file is served (plus, if the HTTP layer resolves dot segments itself, the same
    // file reached through them: still inside the release).
    for (const target of served) expect([`${p}/en.json`, `/cdn/p/${slug}/r/latest/../${release.slug}/en.json`, `/cdn/p/${slug}/r/latest/en.json?x=${"y".repeat(3000)}`]).toContain(target);
    expect(served).toContain(`${p}/en.json`);
  });

  test("interface §4.5: the path pattern accepts exactly slugs of 16 letters or digits, latest, a language code and json|yaml|arb", () => {
    const s = "AbCdEfGh12345678";
    expect(parseCdnPath(`/p/${s}/r/${s}/pt-BR.yaml`)).toEqual({ projectSlug: s, releaseSlug: s, channel: false, code: "pt-BR", ext: "yaml" });
    expect(parseCdnPath(`/p/${s}/r/latest/zh-Hant-TW.arb`)).toEqual({ projectSlug: s, releaseSlug: "latest", channel: false, code: "zh-Hant-TW", ext: "arb" });
    // docs/releases.md "Channels": /c/{channelSlug}/, which has no `latest`.
    expect(parseCdnPath(`/p/${s}/c/${s}/de.json`)).toEqual({ projectSlug: s, releaseSlug: s, channel: true, code: "de", ext: "json" });
    expect(parseCdnPath(`/p/${s}/c/latest/de.json`)).toBeNull();
    expect(parseCdnPath(`/p/${s}/x/${s}/de.json`)).toBeNull();
    for (const bad of [`/p/${s}/r/${s}/en.xml`, `/p/${s}/r/${s}/e.json`, `/p/${s}/r/${s}/en-.json`, `/p/${s}/r/${s}/en.json.gz`, `/p/${s.slice(1)}/r/latest/en.json`, `/p/${s}/r/latest/../en.json`, `/p/${s}/r/latest/en.json\u0000`, `/p/${s}_/r/latest/en.json`, "", "/"]) {
      expect(parseCdnPath(bad), bad).toBeNull();
    }
  });
});
