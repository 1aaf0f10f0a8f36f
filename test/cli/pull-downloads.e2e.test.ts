/**
 * product §6, docs/automation.md "pull": the client downloads a release's files a few at a time
 * and compressed, and writes every one whole. The CDN is reached through a proxy (the server's
 * download_urls name it, PHRASEBOOK_CDN_URL) that holds each file a moment, so downloads that
 * overlap are seen overlapping, and counts them.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PULL_CONCURRENT_DOWNLOADS } from "../../src/cli/client/pull-download.ts";
import { freePort } from "../helpers/server.ts";
import { deployment, gitRepo, phrasebook } from "./client.ts";

const LANGUAGES = ["de", "fr", "es", "it", "nl", "pl", "sv", "da"];

describe("pull downloads (docs/automation.md \"pull\")", () => {
  test(`at most ${PULL_CONCURRENT_DOWNLOADS} at once, and that many when there are more files; compressed; each written whole`, async () => {
    const port = await freePort();
    const d = await deployment(LANGUAGES, { env: { PHRASEBOOK_CDN_URL: `http://127.0.0.1:${port}/cdn` } });
    let inFlight = 0;
    let most = 0;
    const encodings = new Set<string>();
    const proxy = Bun.serve({
      port,
      hostname: "127.0.0.1",
      async fetch(request) {
        const url = new URL(request.url);
        inFlight++;
        most = Math.max(most, inFlight);
        encodings.add(request.headers.get("accept-encoding") ?? "");
        try {
          await Bun.sleep(300); // long enough for the client to start whatever else it would start meanwhile
          const upstream = await fetch(`${d.server.url}${url.pathname}`, { headers: { "accept-encoding": request.headers.get("accept-encoding") ?? "" }, decompress: false });
          return new Response(await upstream.arrayBuffer(), { status: upstream.status, headers: upstream.headers });
        } finally {
          inFlight--;
        }
      },
    });
    const target = gitRepo({ "README.md": "app\n" });
    try {
      const id = await d.admin.key(d.pid, "hello", Object.fromEntries([["en", "Hello"], ...LANGUAGES.map((code) => [code, `Hello in ${code}`])]));
      expect(id).toBeTruthy();
      const draft = await d.admin.post(`/projects/${d.pid}/releases`, { name: "R", tag: "v1" });
      expect((await d.admin.post(`/projects/${d.pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
      // The client fetches only from the server's origin or the CDN origin it is told (docs/automation.md "What the client trusts").
      const r = await phrasebook(["pull", "--out", "locales/{language}.json"], { cwd: target, env: { ...d.env, PHRASEBOOK_CDN_URL: `http://127.0.0.1:${port}/cdn` } });
      expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(most).toBe(PULL_CONCURRENT_DOWNLOADS);
      expect([...encodings].every((e) => /\b(gzip|br)\b/.test(e))).toBe(true);
      for (const code of LANGUAGES) expect(JSON.parse(readFileSync(join(target, "locales", `${code}.json`), "utf8"))).toEqual({ hello: `Hello in ${code}` });
      // Written in the order of the release's languages, whatever order the downloads ended in.
      expect(r.stdout.split("\n").filter((l) => l.startsWith("wrote")).map((l) => l.split(" ")[1])).toEqual(["en", ...LANGUAGES].sort().map((c) => `locales/${c}.json`));
    } finally {
      proxy.stop(true);
      await d.stop();
      rmSync(target, { recursive: true, force: true });
    }
  });
});
