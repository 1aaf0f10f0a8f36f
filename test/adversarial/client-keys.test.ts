/**
 * No key name reaches an object's prototype in the clients (docs/automation.md "What the client
 * trusts"): a release whose keys are `__proto__.app`, `constructor.name` and `toString` is pulled
 * into a nested JSON file by the executable and by the Node client, without a file of its own
 * and over one, and each key comes back as a key of its own, in the nested file.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { bundleNodeClient } from "../../src/cli/client/bundle.ts";
import { clientBinary, gitRepo } from "../cli/client.ts";

setDefaultTimeout(60_000);

const TOKEN = `pb_${"a".repeat(43)}`;
const RELEASE = { id: `rel_${"A".repeat(20)}`, tag: "v1", name: "One" };
const DE = { "__proto__.app": "App", "constructor.name": "Name", "home.title": "Start", toString: "Text" };

let stub: Server<unknown>;
let script: string;
let scriptDir: string;

beforeAll(() => {
  clientBinary();
  scriptDir = mkdtempSync(join(tmpdir(), "phrasebook-node-client-"));
  script = join(scriptDir, "phrasebook.mjs");
  writeFileSync(script, bundleNodeClient());
  const json = (body: unknown) => new Response(typeof body === "string" ? body : JSON.stringify(body), { headers: { "content-type": "application/json" } });
  stub = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      const base = `http://127.0.0.1:${stub.port}`;
      if (url.pathname === "/v1/releases") return json({ items: [RELEASE], page_info: { total_pages: 1 } });
      if (url.pathname === `/v1/releases/${RELEASE.id}`) return json({ ...RELEASE, languages: [{ code: "de", is_base_language: false, download_urls: { json: `${base}/cdn/de.json` } }] });
      // Written by hand: a JS object literal would make "__proto__" its prototype, not a key.
      if (url.pathname === "/cdn/de.json") return json(`{\n  "__proto__.app": "App",\n  "constructor.name": "Name",\n  "home.title": "Start",\n  "toString": "Text"\n}\n`);
      return new Response("{}", { status: 404 });
    },
  });
});
afterAll(() => {
  stub?.stop(true);
  rmSync(scriptDir, { recursive: true, force: true });
});

async function run(client: "executable" | "node", cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = client === "node" ? ["node", script, "pull"] : [clientBinary(), "pull"];
  const proc = Bun.spawn(command, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PHRASEBOOK_SERVER: `http://127.0.0.1:${stub.port}`, PHRASEBOOK_TOKEN: TOKEN }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The file's keys, flattened with ".", read without building objects from them (JSON.parse would too, safely). */
function flatKeys(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const walk = (o: Record<string, unknown>, prefix: string) => {
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (typeof v === "string") out[prefix + k] = v;
      else walk(v as Record<string, unknown>, `${prefix}${k}.`);
    }
  };
  walk(JSON.parse(text), "");
  return out;
}

describe("keys named after Object.prototype's properties", () => {
  for (const client of ["executable", "node"] as const) {
    test(`the ${client} client pulls them nested, each a key of its own; a file there already keeps its shape`, async () => {
      const repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: en.json\n    translations: locales/{language}.json\n", "en.json": '{\n  "home": {\n    "title": "Home"\n  }\n}\n' });
      try {
        const first = await run(client, repo);
        expect(first.stderr).toBe("");
        expect(first.code).toBe(0);
        const text = readFileSync(join(repo, "locales/de.json"), "utf8");
        expect(text).toContain('"__proto__": {\n    "app": "App"\n  }');
        expect(text).not.toContain('"__proto__.app"'); // nested as the source is, not written flat
        expect({ ...flatKeys(text) }).toEqual(DE);

        writeFileSync(join(repo, "locales/de.json"), '{\n    "home": {\n        "title": "Alt"\n    },\n    "toString": "Text"\n}\n');
        const again = await run(client, repo);
        expect(again.code, again.stderr).toBe(0);
        const kept = readFileSync(join(repo, "locales/de.json"), "utf8");
        // New keys in the release's order (the source has none of them), in the file's four spaces.
        expect(kept).toBe('{\n    "__proto__": {\n        "app": "App"\n    },\n    "constructor": {\n        "name": "Name"\n    },\n    "home": {\n        "title": "Start"\n    },\n    "toString": "Text"\n}\n');
        expect({ ...flatKeys(kept) }).toEqual(DE);
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });
  }
});
