/**
 * What each entry point loads (docs/architecture.md "Start-up"). The executable is built with
 * --splitting: a command loads its chunk and the chunks those import, nothing else. Checked on the
 * same split build, by the modules each chunk holds (the `// src/...` and `// node_modules/...`
 * lines the bundler writes before each one): work counted, not timed (the times are
 * bench/startup.bench.sh's).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../helpers/server.ts";

let dir: string;
let chunks: Map<string, string>;

beforeAll(() => {
  dir = tempDir("phrasebook-chunks-");
  const built = Bun.spawnSync([process.execPath, "build", "--target=bun", "--splitting", "--format=esm", join(ROOT, "src/main.ts"), "--outdir", dir], { cwd: ROOT });
  if (built.exitCode !== 0) throw new Error(built.stderr.toString());
  // Chunks only: the API reference's 4 MB script is a file the build copies beside them.
  const files = readdirSync(dir).filter((f) => f.endsWith(".js") && !f.startsWith("standalone-"));
  chunks = new Map(files.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}, 60_000);

afterAll(() => {
  chunks = new Map(); // the test files share one process: let the 3 MB of text go
  rmSync(dir, { recursive: true, force: true });
});

const staticImports = (text: string) => [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"\.\/([^"]+)"/gm)].map((m) => m[1]!);
const dynamicImports = (text: string) => [...text.matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]!);

/** A chunk and every chunk it imports statically: what loading it loads. */
function loads(chunk: string): Set<string> {
  const seen = new Set<string>();
  const todo = [chunk];
  while (todo.length > 0) {
    const c = todo.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    todo.push(...staticImports(chunks.get(c)!));
  }
  return seen;
}

/** The modules a command's start loads: the entry's, and its own chunk's (by its file's name). */
function modulesOf(command?: string): string[] {
  const entry = loads("main.js");
  let all = entry;
  if (command) {
    const chunk = dynamicImports(chunks.get("main.js")!).find((c) => c.startsWith(`${command}-`));
    if (!chunk) throw new Error(`main.js imports no chunk for ${command}`);
    all = new Set([...entry, ...loads(chunk)]);
  }
  return [...all].flatMap((c) => [...chunks.get(c)!.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)/gm)].map((m) => m[1]!));
}

/** The text of what a command's start loads (the entry's alone without a command). */
const textOf = (command?: string) => {
  const chunk = command && dynamicImports(chunks.get("main.js")!).find((c) => c.startsWith(`${command}-`))!;
  return [...loads("main.js"), ...(chunk ? loads(chunk) : [])].map((c) => chunks.get(c)!).join("\n");
};

/** A Node module imported at a chunk's top (the bundler writes it without its "node:" prefix). */
const nodeImport = (names: string) => new RegExp(`^import\\b[^;]*?from\\s*"(node:)?(${names})"`, "m");

/** What a client command needs none of (docs/product.md §6 is a client of HTTP and files). */
const SERVER_SIDE = [
  "node_modules/elysia/",
  "node_modules/@sinclair/typebox/",
  "node_modules/@elysiajs/openapi/",
  "node_modules/drizzle-orm/",
  "node_modules/@formatjs/icu-messageformat-parser/",
  "src/server.ts",
  "src/app.ts",
  "src/storage/",
  "src/dashboard/",
  "src/messages/",
];
/**
 * Modules of `src/messages/` that are plain code importing nothing (a value's tags, a language's
 * plural categories): the formats' writers use them, so the client loads them with the formats;
 * the message parser and the checks stay out.
 */
const PLAIN_MESSAGES = new Set(["src/messages/markup.ts", "src/messages/plurals.ts"]);
const loadedOf = (modules: string[], prefixes: string[]) => modules.filter((m) => !PLAIN_MESSAGES.has(m) && prefixes.some((p) => m.startsWith(p)));

describe("docs/architecture.md Start-up: each command loads what it runs", () => {
  test("version and --help load the entry alone: no server, framework, storage, message parser or dashboard asset", () => {
    const modules = modulesOf();
    expect(modules).toContain("src/main.ts");
    expect(loadedOf(modules, [...SERVER_SIDE, "node_modules/yaml/", "node_modules/jsonc-parser/"])).toEqual([]);
    // The settings table is there for the flags; node:path and its address parser are required
    // only when a value is parsed.
    expect(textOf()).not.toMatch(nodeImport("path|fs|crypto|zlib|stream|util"));
    expect(textOf()).not.toMatch(/__toESM\(require_ipaddr\(\)/);
  });

  for (const command of ["status", "publish", "push", "pull"]) {
    test(`${command} loads none of the server's side`, () => {
      const modules = modulesOf(command);
      expect(modules).toContain(`src/cli/client/${command}.ts`);
      expect(loadedOf(modules, SERVER_SIDE)).toEqual([]);
    });
  }

  test("no client command loads a file parser at start (a format's reader loads when a file of it is read, docs/formats.md)", () => {
    for (const command of ["status", "publish", "push", "pull"]) {
      expect(loadedOf(modulesOf(command), ["node_modules/yaml/", "node_modules/jsonc-parser/", "src/formats/yaml-read.ts"])).toEqual([]);
    }
  });

  test("status and publish do not load node:path either (only for a phrasebook.yaml, on demand)", () => {
    for (const command of ["status", "publish"]) expect(textOf(command)).not.toMatch(nodeImport("path|crypto|zlib|stream|util"));
  });

  test("serve loads neither the dashboard API's routes (built on the first request) nor node:crypto or node:zlib", () => {
    const modules = modulesOf("server");
    expect(modules).toContain("src/app.ts");
    expect(loadedOf(modules, ["src/dashboard-api/"]).filter((m) => m !== "src/dashboard-api/guards.ts")).toEqual([]);
    expect(textOf("server")).not.toMatch(nodeImport("crypto|zlib"));
  });

  test("the signing code (noble's Ed25519 and hashes) is loaded by the first manifest, signing key or verify: not by serve, nor by push or pull", () => {
    const NOBLE = ["node_modules/@noble/"];
    for (const command of ["server", "push", "pull", "publish", "status"]) expect(loadedOf(modulesOf(command), NOBLE)).toEqual([]);
    expect(loadedOf(modulesOf("verify"), NOBLE).length).toBeGreaterThan(0);
  });

  test("openid-client is loaded on the first single sign-on only: not by serve, a client command, or the dashboard API", () => {
    const OIDC = ["node_modules/openid-client/", "node_modules/oauth4webapi/", "node_modules/jose/"];
    for (const command of ["server", "status", "publish", "push", "pull"]) expect(loadedOf(modulesOf(command), OIDC)).toEqual([]);
    expect(loadedOf(modulesOf(), OIDC)).toEqual([]);
    // The dashboard API's own chunk (loaded on its first request) imports it with import() only.
    const api = [...chunks].find(([, text]) => /^\/\/ src\/dashboard-api\/index\.ts/m.test(text))![0];
    const apiModules = [...loads(api)].flatMap((c) => [...chunks.get(c)!.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)/gm)].map((m) => m[1]!));
    expect(apiModules).toContain("src/accounts/sign-in/oidc.ts");
    expect(loadedOf(apiModules, OIDC)).toEqual([]);
    expect([...chunks.values()].some((text) => /^\/\/ node_modules\/openid-client\//m.test(text))).toBe(true);
  });

  test("a worker thread loads its task's code, not the framework", () => {
    const modules = modulesOf("worker");
    expect(modules).toContain("src/dashboard-api/worker.ts");
    expect(loadedOf(modules, ["node_modules/elysia/", "node_modules/@elysiajs/openapi/", "src/app.ts", "src/server.ts"])).toEqual([]);
  });
});
