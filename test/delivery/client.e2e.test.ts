/**
 * The client's delivery commands (docs/delivery.md): `signing-key`, `builds register` and `verify`,
 * run by the compiled executable and by the Node client, command for command, against the app
 * listening on loopback; `verify` against the attacks a loader must survive, through a stand-in
 * attacker (test/helpers/cdn-attacker.ts): exit 3 and the reason.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientBinary, gitRepo, phrasebook, type ClientRun } from "../cli/client.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import { startCdnAttacker, type CdnAttacker } from "../helpers/cdn-attacker.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { freePort } from "../helpers/server.ts";
import { importJson, projectSlug, publish } from "../helpers/releases.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let admin: DashboardClient;
let attacker: CdnAttacker;
let pid: string;
let slug: string;
let env: Record<string, string>;
let repo: string;
let script: string;
let keyLine: string;

const TEMPLATE = JSON.stringify({ "@@locale": "en", greeting: "Hello {name}", "@greeting": { placeholders: { name: { type: "String" } } }, title: "Shop" });

beforeAll(async () => {
  clientBinary();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  t = await testApp({ env: { PHRASEBOOK_PUBLIC_URL: origin } });
  server = Bun.serve({ hostname: "127.0.0.1", port, fetch: (request) => t.app.handle(request) });
  admin = await t.login();
  pid = (await admin.post("/projects", { name: "App", base_language_code: "en", message_syntax: "flutter" })).body.id;
  await admin.post(`/projects/${pid}/languages`, { code: "de" });
  slug = await projectSlug(admin, pid);
  keyLine = (await admin.get(`/projects/${pid}/signing-key`)).body.public_key;
  const token = (await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["read", "write", "publish"] })).body.token;
  env = { PHRASEBOOK_SERVER: origin, PHRASEBOOK_TOKEN: token };
  repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: lib/l10n/app_en.arb\n    translations: lib/l10n/app_{locale}.arb\n", "lib/l10n/app_en.arb": TEMPLATE });
  script = join(repo, "..", `phrasebook-${crypto.randomUUID()}.mjs`);
  writeFileSync(script, new Uint8Array(await (await fetch(`${origin}/client/phrasebook.mjs`)).arrayBuffer()));
  attacker = startCdnAttacker(t.app);
});
afterAll(async () => {
  attacker?.stop();
  server?.stop(true);
  await t?.close();
  for (const path of [repo, script]) if (path) rmSync(path, { recursive: true, force: true });
});

const bin = (args: string[], extra: Record<string, string> = {}) => phrasebook(args, { cwd: repo, env: { ...env, ...extra } });
async function node(args: string[]): Promise<ClientRun> {
  const proc = Bun.spawn(["node", script, ...args], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
/** Both clients, the same answer. */
async function both(args: string[]): Promise<ClientRun> {
  const [a, b] = [await bin(args), await node(args)];
  expect(b).toEqual(a);
  return a;
}

describe("signing-key", () => {
  test("before the first publish it says to read the key in the dashboard (exit 1)", async () => {
    const run = await both(["signing-key"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("read the key in the dashboard");
  });

  test("prints the key.pub the CDN serves, which minisign and verify take", async () => {
    expect((await bin(["push"])).code).toBe(0);
    await importJson(admin, pid, "de", { greeting: "Hallo {name}", title: "Laden" });
    await publish(admin, pid, "v1");
    const run = await both(["signing-key"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(await (await t.fetch(`/cdn/p/${slug}/key.pub`)).text());
    writeFileSync(join(repo, "key.pub"), run.stdout);
  });
});

describe("verify", () => {
  test("latest's manifest: the signature, then every file, one line each (exit 0)", async () => {
    const run = await both(["verify", "--public-key", keyLine]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^ok p/${slug}/r/latest/manifest.json: signed by key [0-9A-F]{16}, sequence \\d+, release v1 \\(rel_`));
    expect(lines.filter((l) => /^ok (de|en)\.(json|yaml|arb) /.test(l))).toHaveLength(6);
    expect(lines.at(-1)).toBe("verified 6 file(s)");
  });

  test("a release by tag, with the key as its key.pub file", async () => {
    const run = await both(["verify", "--public-key", "key.pub", "--release", "v1"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok p\/[0-9A-Za-z]{16}\/r\/[0-9A-Za-z]{16}\/manifest\.json:/);
  });

  test("a channel's manifest, and a registered build's view", async () => {
    const release = (await admin.get(`/projects/${pid}/releases`)).body.items[0];
    expect((await admin.put(`/projects/${pid}/channels/production`, { release_id: release.id })).status).toBe(201);
    expect((await both(["verify", "--public-key", keyLine, "--channel", "production"])).code).toBe(0);
    const registered = await bin(["builds", "register", "--name", "1.0 (1)"]);
    expect(registered.code).toBe(0);
    const id = registered.stdout.trim().split("\n").at(-1)!;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    // The Node client registers the same build: the same messages, the same id.
    expect((await node(["builds", "register", "--name", "1.0 (1)"])).stdout.trim().split("\n").at(-1)).toBe(id);
    const run = await both(["verify", "--public-key", keyLine, "--build", id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`build ${id}`);
  });

  const viaAttacker = () => ["verify", "--public-key", keyLine, "--manifest", `${attacker.cdnUrl}/p/${slug}/r/latest/manifest.json`];

  test("a tampered file, or one of another release, fails its check: exit 3 naming it", async () => {
    attacker.mode = "tamper";
    const tampered = await both(viaAttacker());
    expect(tampered.code).toBe(3);
    expect(tampered.stdout).toContain("FAILED de.json: its SHA-256 is not the manifest's");
    expect(tampered.stdout.trim().split("\n").at(-1)).toMatch(/^\d+ of 6 file\(s\) failed$/);
    attacker.mode = "mix";
    attacker.mixWith = new TextEncoder().encode('{"greeting":"Hi"}\n');
    const mixed = await both(viaAttacker());
    expect(mixed.code).toBe(3);
    expect(mixed.stdout).toMatch(/FAILED en\.json: \d+ bytes where the manifest says \d+/);
    attacker.mode = "pass";
  });

  test("a manifest signed by an unknown key, or a forged rotation, fails (exit 3); a real rotation is followed from the old key", async () => {
    attacker.mode = "unknown-key";
    const unknown = await both(viaAttacker());
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toMatch(/^FAILED .*signed by an unknown key/);
    attacker.mode = "forged-rotation";
    const forged = await both(viaAttacker());
    expect(forged.code).toBe(3);
    expect(forged.stdout).toContain("key 2 of the project is not signed by key 1");
    attacker.mode = "pass";
    expect((await admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
    const followed = await both(viaAttacker());
    expect(followed.code).toBe(0);
    // Trusting the new key, latest's manifest (signed with it) verifies at once.
    const newKey = (await admin.get(`/projects/${pid}/signing-key`)).body.public_key;
    expect((await both(["verify", "--public-key", newKey])).code).toBe(0);
  });

  test("bad usage is one line, exit 1", async () => {
    const run = await both(["verify"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("verify needs --public-key");
    expect((await both(["verify", "--public-key", keyLine, "--build", "nope"])).code).toBe(1);
  });
});
