/**
 * Writes test/fixtures/upgrade/data-<version>.tar: a data dir made by THIS build (demo content, a
 * pending webhook delivery), for the upgrade test of later builds. Run it once per release whose
 * data dirs later versions must open: `bun scripts/make-upgrade-fixture.ts dist/phrasebook`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.argv[2] ?? "dist/phrasebook";
const version = Bun.spawnSync([bin, "version"]).stdout.toString().trim().split(" ")[1];
const dataDir = mkdtempSync(join(tmpdir(), "phrasebook-fixture-"));
const port = 18000 + Math.floor(Math.random() * 1000);
const email = "admin@example.test";
const password = "fixture-password";
const env = {
  PATH: process.env.PATH ?? "",
  PHRASEBOOK_DATA_DIR: dataDir,
  PHRASEBOOK_PORT: String(port),
  PHRASEBOOK_HOST: "127.0.0.1",
  PHRASEBOOK_PUBLIC_URL: "http://127.0.0.1:8080",
  PHRASEBOOK_ADMIN_EMAIL: email,
  PHRASEBOOK_ADMIN_PASSWORD: password,
  PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "86400,86400,86400,86400",
};
const proc = Bun.spawn([bin, "demo"], { env, stdout: "pipe", stderr: "inherit" });
let out = "";
const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
while (!out.includes("curl")) {
  const { value, done } = await reader.read();
  if (done) throw new Error(`demo exited early:\n${out}`);
  out += new TextDecoder().decode(value);
}
void (async () => {
  while (!(await reader.read()).done); // keep draining: the server logs every request
})();
const token = out.match(/pb_[0-9A-Za-z]{43}/)![0];
const base = `http://127.0.0.1:${port}/dashboard/api`;
const login = await fetch(`${base}/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
const csrf = ((await login.json()) as { csrf_token: string }).csrf_token;
const call = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${base}${path}`, { method, headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" }, body: JSON.stringify(body) })).json() as Promise<any>;
const project = (await call("GET", "/projects")).items[0];
// A receiver on a refused address: the delivery fails once and stays pending for a day.
await call("POST", `/projects/${project.id}/webhooks`, { url: "https://127.0.0.1:9/hook", events: ["key_created"], secret: "fixture-secret" });
await call("POST", `/projects/${project.id}/keys`, { key: "fixture.pending_event" });
await Bun.sleep(1500);
proc.kill("SIGTERM");
await proc.exited;

const dir = join(import.meta.dir, "..", "test", "fixtures", "upgrade");
mkdirSync(dir, { recursive: true });
const file = join(dir, `data-${version}.tar`);
const backup = Bun.spawnSync([bin, "backup", file], { env });
if (backup.exitCode !== 0) throw new Error(backup.stderr.toString());
writeFileSync(
  join(dir, `data-${version}.json`),
  JSON.stringify({ version, email, password, token, project_id: project.id, cdn_slug: project.cdn_slug }, null, 2) + "\n",
);
rmSync(dataDir, { recursive: true, force: true });
console.log(`wrote ${file}`);
