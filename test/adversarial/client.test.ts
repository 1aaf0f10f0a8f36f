/**
 * The client as a victim (docs/automation.md "What the client trusts"): a hostile server names
 * `file:` URLs, other hosts, endless bodies, endless pages and languages; a hostile repository
 * holds symlinks out of the working tree, devices, FIFOs and huge files. Each attack is run
 * against the compiled executable, with a server started here on loopback.
 * What a run costs is counted (bytes the server sent, requests it answered, the client's peak
 * memory), never timed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { clientBinary, gitRepo, writeFiles } from "../cli/client.ts";

setDefaultTimeout(60_000);

const TOKEN = `pb_${"a".repeat(43)}`;
const RELEASE = { id: `rel_${"A".repeat(20)}`, tag: "v1", name: "One" };

type Handler = (req: Request, url: URL) => Response | Promise<Response>;
let handler: Handler = () => new Response("{}", { status: 404 });
let hostile: Server<unknown>;
let other: Server<unknown>;
let otherHits = 0;
let sent = 0;
let requests = 0;
let repo: string;
let outside: string;

beforeAll(() => {
  clientBinary();
  hostile = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => (requests++, handler(req, new URL(req.url))) });
  other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (otherHits++, new Response('{"de": "stolen"}', { headers: { "content-type": "application/json" } })) });
  repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: en.json\n    translations: out/{language}.json\n", "en.json": '{"a": "A"}' });
  outside = mkdtempSync(join(tmpdir(), "phrasebook-outside-"));
  writeFileSync(join(outside, "secret.json"), '{"aws_secret": "hunter2"}');
});
afterAll(() => {
  hostile?.stop(true);
  other?.stop(true);
  for (const dir of [repo, outside]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const server = () => `http://127.0.0.1:${hostile.port}`;

/** A Phrasebook in every way but the one under test: the latest release, one language, `url` to download. */
function releaseServing(download: (url: URL) => Response, urlOf: (base: string) => string = (b) => `${b}/cdn/de.json`): Handler {
  return (_req, url) => {
    if (url.pathname === "/v1/releases") return json({ items: [RELEASE], page_info: { total_pages: 1 } });
    if (url.pathname === `/v1/releases/${RELEASE.id}`) return json({ ...RELEASE, languages: [{ code: "de", download_urls: { json: urlOf(server()) } }] });
    return download(url);
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the client, in MB. */
  peakMb: number;
}

async function run(args: string[], cwd = repo): Promise<Run> {
  rmSync(join(cwd, "out"), { recursive: true, force: true });
  sent = 0;
  requests = 0;
  otherHits = 0;
  const peakFile = join(outside, "peak");
  // GNU time's %M: the client's peak resident memory in KB.
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", "-o", peakFile, clientBinary(), ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: "/tmp", PHRASEBOOK_SERVER: server(), PHRASEBOOK_TOKEN: TOKEN }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, peakMb: Number(readFileSync(peakFile, "utf8").trim().split("\n").at(-1)) / 1024 };
}

/** An endless body, counted as it is sent. */
function endless(type: string, start = ""): Response {
  const chunk = new Uint8Array(256 * 1024).fill(0x20);
  let first = true;
  return new Response(
    new ReadableStream({
      pull(controller) {
        const bytes = first ? new TextEncoder().encode(start) : chunk;
        first = false;
        sent += bytes.byteLength;
        controller.enqueue(bytes);
      },
    }),
    { headers: { "content-type": type } },
  );
}

const MB = 1024 * 1024;

describe("pull trusts nothing the server names (docs/automation.md \"What the client trusts\")", () => {
  test("a file: URL is refused, and nothing is written", async () => {
    handler = releaseServing(() => json({}), () => `file://${join(outside, "secret.json")}`);
    const r = await run(["pull"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^phrasebook: pull out\/de\.json: the server named "file:\/\/.*secret\.json" to download, which is no http\(s\) URL; nothing was written\n$/);
    expect(existsSync(join(repo, "out"))).toBe(false);
  });

  test("another host is never fetched, nor a redirect to it", async () => {
    handler = releaseServing(() => json({}), () => `http://127.0.0.1:${other.port}/de.json`);
    let r = await run(["pull"]);
    expect({ code: r.code, otherHits }).toEqual({ code: 2, otherHits: 0 });
    expect(r.stderr).toContain(`which is not on ${server()}; for a CDN on a host of its own, give its origin as --cdn-url`);

    handler = releaseServing(() => new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${other.port}/de.json` } }));
    r = await run(["pull"]);
    expect({ code: r.code, otherHits }).toEqual({ code: 2, otherHits: 0 });
    expect(readdirSync(repo).includes("out") ? readdirSync(join(repo, "out")) : []).toEqual([]);

    // The CDN origin given by --cdn-url is fetched.
    handler = releaseServing(() => json({}), () => `http://127.0.0.1:${other.port}/de.json`);
    r = await run(["pull", "--cdn-url", `http://127.0.0.1:${other.port}`]);
    expect({ code: r.code, otherHits, stderr: r.stderr }).toEqual({ code: 0, otherHits: 1, stderr: "" });
    rmSync(join(repo, "out"), { recursive: true, force: true });
  });

  test("an endless download stops at the bound, streamed to disk, not held", async () => {
    handler = releaseServing(() => endless("application/json", '{"a": "'));
    const r = await run(["pull"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`phrasebook: pull out/de.json: the answer from "${server()}/cdn/de.json" is larger than 64 MB\n`);
    // The server stopped being read soon after the bound; the client held a small part of it.
    expect(sent).toBeLessThan(96 * MB);
    expect(r.peakMb).toBeLessThan(150);
    expect(existsSync(join(repo, "out")) ? readdirSync(join(repo, "out")) : []).toEqual([]);
  });

  test("an endless /v1/releases stops at the bound", async () => {
    handler = () => endless("application/json", '{"items": [');
    const r = await run(["pull"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^phrasebook: pull: the answer from ".*\/v1\/releases\?.*" is larger than 8 MB\n$/);
    expect(sent).toBeLessThan(40 * MB);
    expect(r.peakMb).toBeLessThan(150);
  });

  test("--release TAG stops paging when the server claims 10^12 pages", async () => {
    handler = (_req, url) => json({ items: [{ ...RELEASE, tag: `other-${url.searchParams.get("page")}` }], page_info: { total_pages: 1e12 } });
    const r = await run(["pull", "--release", "v9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("phrasebook: pull --release v9: not found in the first 100 pages of releases the server lists; give the release's id instead\n");
    expect(requests).toBe(100);
  });

  test("200,000 languages stop before the first download", async () => {
    const languages = Array.from({ length: 200_000 }, (_, i) => ({ code: `x${i}`, download_urls: {} }));
    const body = JSON.stringify({ ...RELEASE, languages });
    handler = (_req, url) => {
      if (url.pathname === "/v1/releases") return json({ items: [RELEASE], page_info: { total_pages: 1 } });
      if (url.pathname === `/v1/releases/${RELEASE.id}`) return new Response(body, { headers: { "content-type": "application/json" } });
      return json({ a: "b" });
    };
    const r = await run(["pull", "--out", "out/{language}.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("phrasebook: pull v1: the server lists 200000 languages, more than the 1000 the client accepts; nothing was written\n");
    expect(requests).toBe(2);
    expect(existsSync(join(repo, "out"))).toBe(false);
  });
});

describe("a download proven by its ETag is still checked for its shape (docs/automation.md \"What the client trusts\")", () => {
  /** A CDN answer whose ETag is the start of its bytes' SHA-256, as a Phrasebook server's is. */
  const tagged = (body: Uint8Array) =>
    new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/json", etag: `"${new Bun.CryptoHasher("sha256").update(body).digest("base64url").slice(0, 22)}"` } });

  for (const [what, body] of [
    ["text that is no JSON object", new TextEncoder().encode("yes: this is not json\n")],
    ["bytes that are not UTF-8", Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])],
  ] as const) {
    test(`${what}, with a tag that matches it, is refused and nothing is written`, async () => {
      handler = releaseServing(() => tagged(body));
      const r = await run(["pull"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^phrasebook: pull out\/de\.json: the download of .*\/cdn\/de\.json is not a whole json file \(/);
      expect(existsSync(join(repo, "out")) ? readdirSync(join(repo, "out")) : []).toEqual([]);
    });
  }

  test("a large file of two-, three- and four-byte characters cut across chunks at every place is taken whole, not read back", async () => {
    const value = "ő€😀".repeat(40_000);
    const file = new TextEncoder().encode(`{\n  "a": ${JSON.stringify(value)},\n  "b": "end"\n}\n`);
    // Sent in chunks of 1 to 7 bytes past 64 KB, so chunk ends fall inside every kind of sequence.
    handler = releaseServing(() => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          let at = 0;
          for (let n = 0; at < file.length; n++) {
            const size = 65_536 + (n % 7) + 1;
            controller.enqueue(file.slice(at, at + size));
            at += size;
          }
          controller.close();
        },
      });
      const res = tagged(file);
      return new Response(stream, { headers: res.headers });
    });
    const r = await run(["pull"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(join(repo, "out", "de.json")).equals(Buffer.from(file))).toBe(true);
    rmSync(join(repo, "out"), { recursive: true, force: true });
  });
});

describe("push reads only regular files inside the working tree (docs/automation.md \"What the client trusts\")", () => {
  let imports = 0;
  beforeAll(() => {
    handler = (req, url) => {
      if (url.pathname === "/dashboard/api/projects") return json({ items: [{ id: "prj_x", name: "App", base_language_code: "en" }] });
      if (url.pathname === "/dashboard/api/projects/prj_x/languages") return json({ items: [{ code: "en" }, { code: "de" }] });
      if (url.pathname === "/dashboard/api/projects/prj_x/import") {
        imports++;
        return json({ created_keys: 1, updated_keys: 0, updated_translations: 0, unchanged: 0, deleted_keys: 0, problems: 0, changes: [] });
      }
      return json({ error: "no" });
    };
  });

  test("a symlinked source to a file outside is not uploaded", async () => {
    symlinkSync(join(outside, "secret.json"), join(repo, "de.json"));
    symlinkSync(outside, join(repo, "linked"));
    for (const file of ["de.json", "linked/secret.json"]) {
      imports = 0;
      const r = await run(["push", file, "--language", "de"]);
      expect({ code: r.code, imports }).toEqual({ code: 1, imports: 0 });
      expect(r.stderr).toBe(`phrasebook: ${file}: is outside the working tree ${repo} (a symlink to ${join(outside, "secret.json")}); the client reads only files inside it\n`);
    }
  });

  test("a symlink to /dev/zero and a FIFO are refused without reading", async () => {
    symlinkSync("/dev/zero", join(repo, "zero.json"));
    Bun.spawnSync(["mkfifo", join(repo, "fifo.json")]);
    imports = 0;
    let r = await run(["push", "zero.json", "--language", "de"]);
    expect({ code: r.code, imports }).toEqual({ code: 1, imports: 0 });
    expect(r.stderr).toBe(`phrasebook: zero.json: is outside the working tree ${repo} (a symlink to /dev/zero); the client reads only files inside it\n`);
    r = await run(["push", "fifo.json", "--language", "de"]);
    expect({ code: r.code, imports }).toEqual({ code: 1, imports: 0 });
    expect(r.stderr).toBe("phrasebook: fifo.json: is not a regular file (a device, FIFO or socket); the client reads only regular files\n");
  });

  test("a 1 GB file is refused by its size before it is read", async () => {
    Bun.spawnSync(["truncate", "-s", "1G", join(repo, "huge.json")]);
    imports = 0;
    const r = await run(["push", "huge.json", "--language", "de"]);
    expect({ code: r.code, imports }).toEqual({ code: 1, imports: 0 });
    expect(r.stderr).toBe("phrasebook: huge.json: is 1024.0 MB, larger than the 10 MB a file may have\n");
    expect(r.peakMb).toBeLessThan(150);
    rmSync(join(repo, "huge.json"));
  });

  test("a regular file inside the tree, also through a symlink inside it, is pushed", async () => {
    writeFiles(repo, { "real/de.json": '{"a": "B"}' });
    symlinkSync(join(repo, "real/de.json"), join(repo, "inside.json"));
    imports = 0;
    const r = await run(["push", "inside.json", "--language", "de"]);
    expect({ code: r.code, imports, stderr: r.stderr }).toEqual({ code: 0, imports: 1, stderr: "" });
  });
});
