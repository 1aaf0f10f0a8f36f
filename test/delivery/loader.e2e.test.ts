/**
 * The web loader, `/client/ota.mjs` (docs/delivery.md "The loader"), in Node and in Chromium,
 * against the app with a stand-in attacker between them (test/helpers/cdn-attacker.ts): first
 * load, a 304, a new release, each attack a loader must survive (it keeps what it had and says
 * why), an offline start from what it kept, and i18next showing the new strings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, type TestBrowser } from "../dashboard/browser.ts";
import { startCdnAttacker, type CdnAttacker } from "../helpers/cdn-attacker.ts";
import { ROOT } from "../helpers/server.ts";
import { cdnFixture, importJson, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

setDefaultTimeout(60_000);

/** What a test asks of a loader, wherever it runs. */
interface Runner {
  create(options: Record<string, unknown>): Promise<void>;
  load(language: string): Promise<{ ok: true; value: any } | { ok: false; error: string }>;
  i18nInit(options: Record<string, unknown>): Promise<void>;
  t(key: string): Promise<string>;
  reload(): Promise<void>;
  /** A new instance of the app (a restart, a new page) with the storage the last one kept. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

let f: CdnFixture;
let attacker: CdnAttacker;
let tag = 0;
const work = mkdtempSync(join(tmpdir(), "phrasebook-ota-"));
const otaPath = join(work, "ota.mjs");

/** A project of its own for each day: its key chain starts at key 1. */
async function webProject(name: string): Promise<{ pid: string; slug: string; publicKey: string }> {
  const pid = (await f.admin.post("/projects", { name, base_language_code: "en", message_syntax: "icu" })).body.id;
  await f.admin.post(`/projects/${pid}/languages`, { code: "de" });
  await importJson(f.admin, pid, "en", { title: "Title", hello: "Hello {name}" });
  return { pid, slug: await projectSlug(f.admin, pid), publicKey: (await f.admin.get(`/projects/${pid}/signing-key`)).body.public_key };
}

async function release(pid: string, title: string): Promise<string> {
  await importJson(f.admin, pid, "de", { title, hello: "Hallo {name}" });
  f.clock.advance(1000);
  await publish(f.admin, pid, `v${++tag}`);
  return `v${tag}`;
}

beforeAll(async () => {
  f = await cdnFixture();
  attacker = startCdnAttacker(f.t.app);
  const ota = await fetch(`${attacker.url}/ota.mjs`);
  expect(ota.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  writeFileSync(otaPath, new Uint8Array(await ota.arrayBuffer()));
});
afterAll(async () => {
  attacker?.stop();
  await f?.t.close();
  rmSync(work, { recursive: true, force: true });
});

function nodeRunner(): Runner {
  const storage = join(work, `storage-${crypto.randomUUID()}.json`);
  let proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  let lines: AsyncIterator<string>;
  let next = 0;
  const start = () => {
    proc = Bun.spawn(["node", join(ROOT, "test/fixtures/ota-driver.mjs"), otaPath, storage], { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const decoder = new TextDecoder();
    lines = (async function* () {
      let buffered = "";
      for await (const chunk of proc.stdout) {
        buffered += decoder.decode(chunk);
        let at: number;
        while ((at = buffered.indexOf("\n")) >= 0) {
          yield buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
        }
      }
    })();
  };
  start();
  let created: Record<string, unknown> | undefined;
  async function call(op: string, ...args: unknown[]): Promise<any> {
    const id = ++next;
    proc.stdin.write(JSON.stringify({ id, op, args }) + "\n");
    proc.stdin.flush();
    const { value, done } = await lines.next();
    if (done) throw new Error(`the Node loader exited: ${await new Response(proc.stderr).text()}`);
    return JSON.parse(value);
  }
  const must = async (op: string, ...args: unknown[]) => {
    const r = await call(op, ...args);
    if (!r.ok) throw new Error(r.error);
    return r.value;
  };
  return {
    create: async (o) => void (created = o, await must("create", o)),
    load: (language) => call("load", language),
    i18nInit: (o) => must("i18nInit", o),
    t: (key) => must("t", key),
    reload: () => must("reload"),
    async restart() {
      proc.stdin.end();
      await proc.exited;
      start();
      if (created) await must("create", created);
    },
    async close() {
      proc.stdin.end();
      await proc.exited;
    },
  };
}

async function chromiumRunner(browser: TestBrowser): Promise<Runner> {
  const context = await browser.browser.newContext();
  let page: Page = await context.newPage();
  await page.goto(`${attacker.url}/`);
  return {
    create: (o) => page.evaluate(async (options) => void ((window as any).loader = (await import("/ota.mjs" as string)).createLoader(options)), o),
    load: (language) =>
      page.evaluate(async (lang) => {
        try {
          return { ok: true as const, value: await (window as any).loader.load(lang) };
        } catch (err) {
          return { ok: false as const, error: String((err as Error).message) };
        }
      }, language),
    i18nInit: (o) =>
      page.evaluate(async (options: any) => {
        const i18next = (await import("/i18next.js" as string)).default;
        const { I18nextBackend } = await import("/ota.mjs" as string);
        (window as any).i18n = i18next.createInstance();
        await (window as any).i18n.use(I18nextBackend).init({ lng: options.lng, fallbackLng: false, ns: ["translation"], backend: options.backend });
      }, o),
    t: (key) => page.evaluate((k) => (window as any).i18n.t(k), key),
    reload: () => page.evaluate(() => (window as any).i18n.reloadResources()),
    async restart() {
      // A new page of the same site: the HTTP cache and localStorage are what the last one left.
      await page.close();
      page = await context.newPage();
      await page.goto(`${attacker.url}/`);
    },
    close: () => context.close(),
  };
}

/** The whole day of a loader, run the same in Node and in Chromium. */
function loaderDay(name: string, make: () => Promise<Runner>) {
  describe(`the loader in ${name}`, () => {
    let r: Runner;
    let project: { pid: string; slug: string; publicKey: string };
    let lastTag = "";
    const options = () => ({ cdnUrl: attacker.cdnUrl, projectSlug: project.slug, publicKey: project.publicKey, format: "json" });
    const slugOf = () => project.slug;
    const publishTitle = async (title: string) => void (lastTag = await release(project.pid, title));
    const expectKept = async (title: string, error: RegExp) => {
      const got = await r.load("de");
      expect(got.ok).toBe(true);
      if (!got.ok) return;
      expect(got.value.messages.title).toBe(title);
      expect(got.value.from).toBe("cache");
      expect(got.value.error).toMatch(error);
    };
    const expectFresh = async (title: string) => {
      const got = await r.load("de");
      if (!got.ok) throw new Error(got.error);
      expect(got.value).toMatchObject({ messages: { title }, from: "network", error: null });
      return got.value;
    };

    beforeAll(async () => {
      attacker.mode = "pass";
      project = await webProject(`Web in ${name}`);
      r = await make();
      await publishTitle(`${name} 1`);
    });
    // An attack lasts one test, whatever its outcome.
    afterEach(() => void (attacker.mode = "pass"));
    afterAll(() => r?.close());

    test("pointed at the server's root instead of its CDN, it rejects, naming where the CDN is by default", async () => {
      await r.create({ ...options(), cdnUrl: attacker.url });
      const got = await r.load("de");
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.error).toMatch(/^phrasebook: no manifest at .*\/p\/.*cdnUrl is not the CDN's address: by default the server's address \+ \/cdn/);
    });

    test("with nothing kept and a CDN that lies, it refuses (rejects) rather than use unchecked strings", async () => {
      await r.create(options());
      attacker.mode = "tamper";
      const got = await r.load("de");
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.error).toMatch(/de\.json: its SHA-256 is not the manifest's/);
      attacker.mode = "pass";
    });

    test("first load: the strings, the release and its sequence, from the network", async () => {
      const first = await expectFresh(`${name} 1`);
      expect(first.release.tag).toBe(lastTag);
      expect(first.sequence).toBeGreaterThan(0);
      const replay = await f.t.fetch(`/cdn/p/${slugOf()}/r/latest/manifest.json`);
      const sig = await f.t.fetch(`/cdn/p/${slugOf()}/r/latest/manifest.json.minisig`);
      attacker.replay = { manifest: new Uint8Array(await replay.arrayBuffer()), signature: new Uint8Array(await sig.arrayBuffer()) };
      attacker.mixWith = new Uint8Array(await (await f.t.fetch(`/cdn/p/${slugOf()}/r/latest/de.json`)).arrayBuffer());
    });

    test("again: the manifest is revalidated with its ETag (a 304), and the strings kept are used", async () => {
      const before = attacker.seen.length;
      const again = await r.load("de");
      if (!again.ok) throw new Error(again.error);
      expect(again.value).toMatchObject({ messages: { title: `${name} 1` }, from: "cache", error: null });
      const manifestAsks = attacker.seen.slice(before).filter((s) => s.path.endsWith("/manifest.json"));
      expect(manifestAsks).toHaveLength(1);
      expect(manifestAsks[0]!.ifNoneMatch).not.toBeNull();
      expect(manifestAsks[0]!.status).toBe(304);
      expect(attacker.seen.slice(before).some((s) => s.path.endsWith("/de.json"))).toBe(false);
    });

    test("a new release: its strings, a higher sequence", async () => {
      await publishTitle(`${name} 2`);
      await expectFresh(`${name} 2`);
    });

    test("a tampered file: it keeps what it had and says why; then takes the release once the file is whole", async () => {
      await publishTitle(`${name} 3`);
      attacker.mode = "tamper";
      await expectKept(`${name} 2`, /de\.json: its SHA-256 is not the manifest's/);
      attacker.mode = "pass";
      await expectFresh(`${name} 3`);
    });

    test("a file of another release at this release's URL (mix and match) is refused", async () => {
      await publishTitle(`${name} 4`);
      attacker.mode = "mix";
      await expectKept(`${name} 3`, /de\.json: (its SHA-256 is not the manifest's|\d+ bytes where the manifest says \d+)/);
      attacker.mode = "pass";
      await expectFresh(`${name} 4`);
    });

    test("an older manifest replayed, validly signed, is refused by its sequence", async () => {
      attacker.mode = "replay";
      await expectKept(`${name} 4`, /older than one already seen .* refused as a replay/);
      attacker.mode = "pass";
    });

    test("a manifest signed by a key the project never had is refused", async () => {
      await publishTitle(`${name} 5`);
      attacker.mode = "unknown-key";
      await expectKept(`${name} 4`, /signed by an unknown key/);
    });

    test("a key rotation the old key did not sign is refused", async () => {
      attacker.mode = "forged-rotation";
      await expectKept(`${name} 4`, /key 2 of the project is not signed by key 1/);
      attacker.mode = "pass";
      await expectFresh(`${name} 5`);
    });

    test("a real rotation: the new key's manifests are followed from the old key through the chain", async () => {
      expect((await f.admin.post(`/projects/${project.pid}/signing-key/rotate`)).status).toBe(200);
      await publishTitle(`${name} 6`);
      await expectFresh(`${name} 6`);
    });

    test("offline, a new start gives what it kept, saying why it could not check for newer", async () => {
      await r.restart();
      await r.create({ ...options(), cdnUrl: "http://127.0.0.1:9/cdn" });
      await expectKept(`${name} 6`, /cannot reach the CDN/);
    });

    test("i18next shows the strings, and the new ones after a publish and reloadResources()", async () => {
      await r.i18nInit({ lng: "de", backend: options() });
      expect(await r.t("title")).toBe(`${name} 6`);
      await publishTitle(`${name} 7`);
      await r.reload();
      expect(await r.t("title")).toBe(`${name} 7`);
    });
  });
}

loaderDay("Node", async () => nodeRunner());

let browser: TestBrowser | undefined;
afterAll(() => browser?.close());
loaderDay("Chromium", async () => {
  browser ??= await launchBrowser();
  return chromiumRunner(browser);
});
