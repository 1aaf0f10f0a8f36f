/**
 * The server's own Node client (docs/automation.md "The Node client"): `GET /client/phrasebook.mjs`
 * with no token gives one script under 2 MB, of the server's version, that runs as
 * `node phrasebook.mjs <command>` with the output and exit codes of the executable. Run here with
 * the machine's `node` against the real server, beside the executable, command for command.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { clientBinary, deployment, gitRepo, phrasebook, type ClientRun, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

let d: Deployment;
let repo: string;
let script: string;

beforeAll(async () => {
  clientBinary();
  d = await deployment(["de", "pt-BR"]);
  repo = gitRepo({
    "phrasebook.yaml": "files:\n  - source: locales/en.json\n    translations: locales/{language}.json\n",
    "locales/en.json": JSON.stringify({ hello: "Hello {name}", bye: "Bye" }, null, 2),
    "locales/de.json": JSON.stringify({ hello: "Hallo {name}" }, null, 2),
  });
  script = join(repo, "..", `phrasebook-${crypto.randomUUID()}.mjs`);
});
afterAll(async () => {
  await d?.stop();
  for (const path of [repo, script]) if (path) rmSync(path, { recursive: true, force: true });
});

async function node(args: string[], env: Record<string, string> = d.env): Promise<ClientRun> {
  const proc = Bun.spawn(["node", script, ...args], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const bin = (args: string[], env: Record<string, string> = d.env) => phrasebook(args, { cwd: repo, env });

describe("GET /client/phrasebook.mjs", () => {
  test("no token, one script under 2 MB, the server's version", async () => {
    const res = await fetch(`${d.server.url}/client/phrasebook.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(2 * 1024 * 1024);
    writeFileSync(script, bytes);
    const version = await node(["version"]);
    expect(version).toEqual({ code: 0, stdout: `phrasebook ${pkg.version}\n`, stderr: "" });
    // No Bun-only module in it: it would not have run under node, and it names none.
    expect(readFileSync(script, "utf8")).not.toMatch(/bun:sqlite|from"bun"|from "bun"/);
  });
});

describe("the same commands, output and exit codes as the executable", () => {
  test("push, push --translations, status, publish, pull", async () => {
    const pushed = await node(["push"]);
    expect(pushed).toEqual({ code: 0, stdout: "locales/en.json: 2 created, 0 updated, 0 unchanged, 0 deleted\n", stderr: "" });
    // A dry run changes nothing, so both may run it: the same lines.
    expect(await node(["push", "--translations", "--dry-run"])).toEqual(await bin(["push", "--translations", "--dry-run"]));
    expect(await node(["push", "--translations"])).toEqual({ code: 0, stdout: "locales/en.json: 0 created, 0 updated, 2 unchanged, 0 deleted\nlocales/de.json: 0 created, 1 updated, 0 unchanged, 0 deleted\n", stderr: "" });
    expect(await node(["status", "--min-progress", "40"])).toEqual(await bin(["status", "--min-progress", "40"]));
    const published = await node(["publish", "--name", "From node", "--tag", "n1"]);
    expect(published.code).toBe(0);
    expect(published.stdout).toStartWith('published rel_');
    expect(await node(["publish", "--name", "From node", "--tag", "n1"])).toEqual(await bin(["publish", "--name", "From node", "--tag", "n1"]));
    const pulled = await node(["pull", "--out", "out/{language}.json"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/^wrote out\/de\.json \(de, n1, 1 KB\)\n/m);
    expect(JSON.parse(readFileSync(join(repo, "out/de.json"), "utf8"))).toEqual({ hello: "Hallo {name}" });
    expect(await node(["pull", "--out", "out/{language}.json"])).toEqual(await bin(["pull", "--out", "out/{language}.json"]));
  });

  test("failures: one line and the same exit code", async () => {
    for (const [args, env] of [
      [["status"], { PHRASEBOOK_SERVER: d.server.url }],
      [["push", "missing.json", "--language", "de"], d.env],
      [["pull", "--release", "v404", "--out", "x/{language}.json"], d.env],
      [["status", "--min-progress", "99"], d.env],
      [["push", "--bogus"], d.env],
    ] as [string[], Record<string, string>][]) {
      const viaNode = await node(args, env);
      expect(viaNode.code).toBeGreaterThan(0);
      expect(viaNode).toEqual(await bin(args, env));
    }
    expect((await node(["serve"])).stderr).toBe('phrasebook: unknown command "serve": the Node client runs push, pull, publish, status, rollback, promote, diff, languages, builds, verify, signing-key, screenshots (the server is the phrasebook executable)\n');
  });
});
