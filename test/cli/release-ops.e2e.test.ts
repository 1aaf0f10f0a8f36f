/**
 * The client's release operations against the compiled server (docs/releases.md, docs/automation.md):
 * `rollback` makes latest serve an earlier release's bytes, `promote` points a channel, `diff`
 * prints what changed; the publish scope is needed for the first two, write or publish for diff.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { clientBinary, deployment, gitRepo, phrasebook, translate, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

let d: Deployment;
let repo: string;
let writeToken: string;
let v1: any;
let v2: any;

const run = (args: string[], env: Record<string, string> = d.env) => phrasebook(args, { cwd: repo, env });
const bytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

beforeAll(async () => {
  clientBinary();
  d = await deployment(["de"]);
  repo = gitRepo({ "README.md": "strings\n" });
  writeToken = (await d.admin.post(`/projects/${d.pid}/tokens`, { name: "writer", scopes: ["write"] })).body.token;
  await d.admin.key(d.pid, "greeting", { en: "Hello", de: "Hallo" });
  const publish = async (tag: string) => {
    const draft = (await d.admin.post(`/projects/${d.pid}/releases`, { name: tag, tag })).body;
    return (await d.admin.post(`/projects/${d.pid}/releases/${draft.id}/publish`)).body;
  };
  v1 = await publish("v1");
  await translate(d, "de", { greeting: "Hallo KAPUTT" });
  v2 = await publish("v2");
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const deUrl = (release: any) => release.languages.find((l: any) => l.code === "de").download_urls.json as string;

test("releases §Roll back: phrasebook rollback --to v1 makes latest serve v1's bytes", async () => {
  const latest = deUrl(v1).replace(`/r/${v1.slug}/`, "/r/latest/");
  expect(await (await fetch(latest)).json()).toEqual({ greeting: "Hallo KAPUTT" });
  const r = await run(["rollback", "--to", "v1", "--tag", "v1-back"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`^republished v1 \\(${v1.id}\\) as rel_[0-9A-Za-z]{20}, tag v1-back, 2 language\\(s\\): latest serves it now\\n$`));
  expect(await bytes(latest)).toEqual(await bytes(deUrl(v1)));
});

test("releases §Roll back: rollback --to v1 --tag T run again after it succeeded exits 0 and prints the release; a T made otherwise is 409, exit 2", async () => {
  const first = await run(["rollback", "--to", "v1", "--tag", "v1-rb1"]);
  expect(first.code, first.stderr).toBe(0);
  const made = /as (rel_\w+), tag v1-rb1/.exec(first.stdout)![1];
  const again = await run(["rollback", "--to", "v1", "--tag", "v1-rb1"]);
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
  expect(again.stdout).toBe(`already republished v1 (${v1.id}) as ${made}, tag v1-rb1\n`);
  // The tag of another release (v2, published, not from v1) is taken otherwise.
  const taken = await run(["rollback", "--to", "v1", "--tag", "v2"]);
  expect(taken.code).toBe(2);
  expect(taken.stderr).toStartWith("phrasebook: rollback --to v1: 409 ");
  // Made from another release: also taken otherwise.
  const fromOther = await run(["rollback", "--to", "v2", "--tag", "v1-rb1"]);
  expect(fromOther.code).toBe(2);
  expect(fromOther.stderr).toContain("409");
});

test("releases §Channels: phrasebook promote --channel beta --release v2 prints the channel's URLs, which serve v2", async () => {
  const r = await run(["promote", "--channel", "beta", "--release", v2.id]);
  expect(r.code).toBe(0);
  expect(r.stdout.split("\n")[0]).toBe(`channel beta now serves v2 (${v2.id}):`);
  const url = r.stdout.split("\n").find((l) => l.includes("/c/") && l.endsWith("/de.json"))!.trim();
  expect(await bytes(url)).toEqual(await bytes(deUrl(v2)));
  const bad = await run(["promote", "--channel", "Beta!", "--release", "v2"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("400 invalid channel name");
});

test("releases §Diff: phrasebook diff prints one line per change and the counts; a write token may, but may not roll back", async () => {
  const r = await run(["diff", "--release", "v2", "--against", "v1"], { ...d.env, PHRASEBOOK_TOKEN: writeToken });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`~ greeting [de]: "Hallo" -> "Hallo KAPUTT"\nv2 against v1: 0 added, 0 removed, 1 changed\n`);
  const noDraft = await run(["diff"]);
  expect(noDraft.code).toBe(1);
  expect(noDraft.stderr).toBe("phrasebook: diff: the project has no draft; name a release with --release TAG|ID\n");
  const refused = await run(["rollback", "--to", "v1", "--tag", "v1-again"], { ...d.env, PHRASEBOOK_TOKEN: writeToken });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("403 token lacks scope publish");
  const unknown = await run(["rollback", "--to", "v0", "--tag", "x"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toBe("phrasebook: rollback --to v0: no release of the project has the tag v0\n");
});
