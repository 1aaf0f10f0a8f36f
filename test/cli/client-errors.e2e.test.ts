/**
 * The client is a good command-line tool (product §6): every failure is one line on standard error
 * and the exit code of product §6 (1 bad usage or a bad local file, 2 the server refused or could
 * not be reached, 3 a check failed), never a stack trace and never the token; `--help` explains
 * every flag with an example; pull never leaves a half-written file; progress only on a terminal.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMAND_HELP } from "../../src/cli/help.ts";
import { freePort } from "../helpers/server.ts";
import { changedFiles, clientBinary, deployment, gitRepo, phrasebook, translate, writeFiles, type ClientRun, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

let d: Deployment;
let repo: string;
const tokens: Record<"read" | "write" | "publish", string> = { read: "", write: "", publish: "" };

beforeAll(async () => {
  clientBinary();
  d = await deployment(["de", "pt-BR"]);
  for (const scope of ["read", "write", "publish"] as const) tokens[scope] = (await d.admin.post(`/projects/${d.pid}/tokens`, { name: scope, scopes: [scope] })).body.token;
  repo = gitRepo({
    "phrasebook.yaml": "files:\n  - source: locales/en.json\n    translations: locales/{language}.json\n",
    "locales/en.json": JSON.stringify({ hello: "Hello", bye: "Bye" }, null, 2),
  });
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = d.env, cwd = repo) => phrasebook(args, { cwd, env });

/** One line on standard error, nothing on standard output, the exit code, and no trace of the token. */
function fails(r: ClientRun, code: number, line: string | RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code, stdout: "" });
  expect(r.stderr.endsWith("\n") && r.stderr.split("\n").length === 2, `one line: ${JSON.stringify(r.stderr)}`).toBe(true);
  if (typeof line === "string") expect(r.stderr).toBe(`phrasebook: ${line}\n`);
  else expect(r.stderr).toMatch(line);
  for (const token of [d.token, ...Object.values(tokens)]) expect(r.stderr).not.toContain(token);
}

describe("product §6: bad usage and bad local files exit 1", () => {
  test("no token, no server, a token of the wrong shape", async () => {
    fails(await run(["push"], { PHRASEBOOK_SERVER: d.server.url }), 1, /^phrasebook: no token: set PHRASEBOOK_TOKEN/);
    fails(await run(["status"], { PHRASEBOOK_TOKEN: d.token }), 1, /^phrasebook: no server: set PHRASEBOOK_SERVER/);
    fails(await run(["status"], { PHRASEBOOK_SERVER: "ftp://example.test", PHRASEBOOK_TOKEN: d.token }), 1, /^phrasebook: the server must be an http\(s\) address/);
    fails(await run(["status"], { PHRASEBOOK_SERVER: d.server.url, PHRASEBOOK_TOKEN: "pb_short" }), 1, "the token is not a Phrasebook API token (those are pb_ and 43 letters and digits)");
  });

  test("a file that does not parse names the line and column, and nothing is sent", async () => {
    writeFiles(repo, { "bad/de.json": '{\n  "hello": "Hallo",\n  "bye": "Tschüss"\n  "more": "x"\n}\n', "bad/app_de.arb": '{"@@locale": "de", "a": 1}', "bad/de.yaml": "a: b\n  c: d\n" });
    fails(await run(["push", "bad/de.json", "--language", "de"]), 1, 'bad/de.json:4:3: not valid JSON: expected "," or the end of the object or list');
    fails(await run(["push", "bad/app_de.arb"]), 1, 'bad/app_de.arb: the message "a" must be a string, not a number');
    fails(await run(["push", "bad/de.yaml", "--language", "de"]), 1, "bad/de.yaml:1:4: not valid YAML: Nested mappings are not allowed in compact mappings");
    // A good file before a broken one: nothing at all is pushed.
    writeFiles(repo, { "good/de.json": '{"only.here": "x"}' });
    fails(await run(["push", "good/de.json", "bad/de.json", "--language", "de"]), 1, /^phrasebook: bad\/de\.json:4:3: /);
    expect((await d.admin.get(`/projects/${d.pid}/keys?search=only.here`)).body.items).toEqual([]);
    fails(await run(["push", "missing.json", "--language", "de"]), 1, "missing.json: no such file");
    writeFileSync(join(repo, "latin1.json"), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    fails(await run(["push", "latin1.json", "--language", "de"]), 1, "latin1.json: not UTF-8 text");
  });

  test("an unknown language, or one the file cannot tell", async () => {
    writeFiles(repo, { "fr.json": '{"hello": "Bonjour"}', "strings.json": '{"hello": "Hallo"}', "locales/fr.json": '{"hello": "Bonjour"}' });
    fails(await run(["push", "fr.json", "--language", "fr"]), 1, "fr.json: fr (--language) is not a language of the project (it has de, en, pt-BR); add it with \"phrasebook languages add fr\", or pass --add-languages");
    fails(await run(["push", "strings.json"]), 1, /^phrasebook: strings\.json: cannot tell its language: pass --language CODE/);
    // A translations file of phrasebook.yaml names its language: fr, which the project lacks.
    fails(await run(["push", "--translations"]), 1, /^phrasebook: locales\/fr\.json: fr \(its name matches locales\/\{language\}\.json\) is not a language of the project/);
    rmSync(join(repo, "locales/fr.json"));
    fails(await run(["push", "strings.json", "--language", "de", "--delete-missing"]), 1, /--delete-missing deletes the keys a base-language file lacks, and this file is de/);
  });

  test("a pattern without {language} or {locale}", async () => {
    fails(await run(["pull", "--out", "strings.json"]), 1, /^phrasebook: --out "strings\.json" has neither \{language\} nor \{locale\}/);
    const other = gitRepo({ "phrasebook.yaml": "files:\n  - source: en.json\n    translations: all.json\n", "en.json": "{}" });
    try {
      fails(await run(["pull"], d.env, other), 1, /^phrasebook: phrasebook\.yaml: files\[0\]\.translations "all\.json" has neither \{language\} nor \{locale\}/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test("docs/automation.md \"The format follows the path\": a --format or format: of another extension's format than the path's names both, and nothing is read, sent or written", async () => {
    // A server that cannot be reached: a request would be exit 2, so exit 1 shows none was made.
    const nowhere = { PHRASEBOOK_SERVER: `http://127.0.0.1:${await freePort()}`, PHRASEBOOK_TOKEN: d.token };
    fails(await run(["pull", "--format", "po", "--out", "res/{android}/strings.xml"], nowhere), 1, "res/{android}/strings.xml: --format po is not the format of the path, which ends in .xml (android); leave --format out, or give a path ending in .po");
    fails(await run(["pull", "--format", "xcstrings", "--out", "ios/{language}.lproj/Localizable.strings"], nowhere), 1, /^phrasebook: ios\/\{language\}\.lproj\/Localizable\.strings: --format xcstrings is not the format of the path, which ends in \.strings \(strings\)/);
    fails(await run(["pull", "--format", "po"], nowhere), 1, /^phrasebook: locales\/\{language\}\.json: --format po is not the format of the path, which ends in \.json \(json\)/);
    writeFiles(repo, { "fr.xml": '<resources><string name="hello">Bonjour</string></resources>\n' });
    fails(await run(["push", "fr.xml", "--format", "po", "--language", "de"], nowhere), 1, /^phrasebook: fr\.xml: --format po is not the format of the path, which ends in \.xml \(android\)/);
    expect(existsSync(join(repo, "res"))).toBe(false);
    expect(existsSync(join(repo, "ios"))).toBe(false);
    const other = gitRepo({ "phrasebook.yaml": "files:\n  - source: res/values/strings.xml\n    translations: res/{android}/strings.xml\n    format: po\n", "res/values/strings.xml": "<resources/>\n" });
    try {
      fails(await run(["pull"], nowhere, other), 1, /^phrasebook: phrasebook\.yaml: files\[0\]: res\/values\/strings\.xml: format: po is not the format of the path, which ends in \.xml \(android\)/);
      fails(await run(["push"], nowhere, other), 1, /^phrasebook: phrasebook\.yaml: files\[0\]: res\/values\/strings\.xml: format: po is not/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    // The same format by another of its names is no conflict: --format yml for a .yaml path.
    const same = await run(["pull", "--format", "yml", "--out", "out/{language}.yaml"], nowhere);
    expect(same.code).toBe(2);
  });

  test("unknown options and commands, options of another command, and a token in phrasebook.yaml", async () => {
    fails(await run(["push", "--dryrun"]), 1, "unknown option --dryrun (see phrasebook push --help)");
    fails(await run(["pull", "--dry-run"]), 1, "pull does not take --dry-run (see phrasebook pull --help)");
    fails(await run(["publish", "--name", "x"]), 1, "publish needs --tag, e.g. --tag v1.4.0");
    fails(await run(["status", "--min-progress", "120"]), 1, '--min-progress must be a percentage from 0 to 100 (got "120")');
    fails(await run(["push", "--format", "txt", "locales/en.json"]), 1, '--format must be json, yaml, arb, xliff, po, android, strings, stringsdict or xcstrings (got "txt")');
    const leaky = gitRepo({ "phrasebook.yaml": `token: ${d.token}\nfiles:\n  - source: en.json\n` });
    try {
      fails(await run(["push"], d.env, leaky), 1, /^phrasebook: phrasebook\.yaml: holds a token: remove it/);
    } finally {
      rmSync(leaky, { recursive: true, force: true });
    }
  });

  test("--help explains every flag of each command, with an example", async () => {
    for (const command of ["push", "pull", "publish", "status"] as const) {
      const r = await run([command, "--help"], {});
      expect(r).toEqual({ code: 0, stdout: COMMAND_HELP[command], stderr: "" });
      expect(r.stdout).toMatch(/Examples?:\n  .*phrasebook /);
      expect(r.stdout).toContain("Exit codes: 0 done; 1 bad usage");
      for (const flag of r.stdout.match(/--[a-z-]+/g)!) expect(r.stdout, flag).toMatch(new RegExp(`\\n  ${flag}\\b`));
    }
    const general = await run(["--help"], {});
    for (const command of ["push", "pull", "publish", "status", "rollback", "promote", "diff"]) expect(general.stdout).toContain(`phrasebook ${command}`);
  });
});

describe("product §6: refusals and unreachable servers exit 2, with the status and the server's error", () => {
  test("a server that is not there, and one that is no Phrasebook", async () => {
    const port = await freePort();
    fails(await run(["status"], { PHRASEBOOK_SERVER: `http://127.0.0.1:${port}`, PHRASEBOOK_TOKEN: d.token }), 2, new RegExp(`^phrasebook: status: cannot reach http://127\\.0\\.0\\.1:${port} \\(`));
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<html>hello</html>", { status: 404, headers: { "content-type": "text/html" } }) });
    try {
      fails(await run(["push"], { PHRASEBOOK_SERVER: other.url.origin, PHRASEBOOK_TOKEN: d.token }), 2, `push: 404 from ${other.url.origin}, which does not look like a Phrasebook server (text/html); is --server its public address?`);
    } finally {
      other.stop(true);
    }
  });

  test("401 for a deleted token, 403 for a missing scope; a tag already published is reported, exit 0 (safe to re-run)", async () => {
    const made = (await d.admin.post(`/projects/${d.pid}/tokens`, { name: "gone", scopes: ["write"] })).body;
    await d.admin.delete(`/projects/${d.pid}/tokens/${made.id}`);
    fails(await run(["push"], { ...d.env, PHRASEBOOK_TOKEN: made.token }), 2, "push: 401 invalid token (is PHRASEBOOK_TOKEN a live token of this server?)");
    const hint = " (give the token that scope: a new token in the dashboard, API tokens)";
    fails(await run(["push"], { ...d.env, PHRASEBOOK_TOKEN: tokens.read }), 2, `push: 403 token lacks scope write${hint}`);
    fails(await run(["publish", "--name", "x", "--tag", "x"], { ...d.env, PHRASEBOOK_TOKEN: tokens.write }), 2, `publish x: 403 token lacks scope publish${hint}`);
    fails(await run(["pull"], { ...d.env, PHRASEBOOK_TOKEN: tokens.write }), 2, `pull: 403 token lacks scope read${hint}`);
    // docs/automation.md "A token for CI": the scope the command needs, though the route it tried first takes another
    // (a read token is refused the project list, which write would allow).
    fails(await run(["publish", "--name", "x", "--tag", "x"], { ...d.env, PHRASEBOOK_TOKEN: tokens.read }), 2, `publish: 403 token lacks scope publish${hint}`);
    fails(await run(["rollback", "--to", "x", "--tag", "y"], { ...d.env, PHRASEBOOK_TOKEN: tokens.read }), 2, `rollback: 403 token lacks scope publish${hint}`);
    fails(await run(["languages", "add", "fr"], { ...d.env, PHRASEBOOK_TOKEN: tokens.read }), 2, `languages add: 403 token lacks scope write${hint}`);
    fails(await run(["languages", "add", "fr"], { ...d.env, PHRASEBOOK_TOKEN: tokens.publish }), 2, `languages add fr: 403 token lacks scope write${hint}`);
    expect((await run(["push"], { ...d.env, PHRASEBOOK_TOKEN: tokens.write })).code).toBe(0);
    expect((await run(["publish", "--name", "One", "--tag", "taken"], { ...d.env, PHRASEBOOK_TOKEN: tokens.publish })).code).toBe(0);
    const again = await run(["publish", "--name", "Two", "--tag", "taken"], { ...d.env, PHRASEBOOK_TOKEN: tokens.publish });
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(again.stdout).toMatch(/^already published rel_\w+: "One", tag taken, /);
    fails(await run(["pull", "--release", "v404"]), 2, "pull: no published release has the tag v404");
  });
});

describe("product §6: status as a CI gate exits 3", () => {
  test("--min-progress and --fail-on-errors", async () => {
    const fresh = await deployment(["de"]);
    try {
      const env = fresh.env;
      const r0 = gitRepo({ "en.json": JSON.stringify({ a: "A {n}", b: "B", c: "C", d: "D" }) });
      try {
        expect((await run(["push", "en.json", "--language", "en"], env, r0)).code).toBe(0);
        await translate(fresh, "de", { a: "A {n}", b: "B", c: "C" });
        const ok = await run(["status", "--min-progress", "75"], env, r0);
        expect(ok).toEqual({
          code: 0,
          stdout: "App: 4 keys\nde  3 translated (75%), 0 approved, 1 missing, 0 errors, 0 warnings\nen  4 translated (100%), 0 approved, 0 missing, 0 errors, 0 warnings  (base)\n",
          stderr: "",
        });
        const below = await run(["status", "--min-progress", "80"], env, r0);
        expect(below.code).toBe(3);
        expect(below.stderr).toBe("phrasebook: below 80% translated: de (75%)\n");
        expect(below.stdout).toContain("de  3 translated (75%)");
        // A message with an error (an unknown placeholder, product §7) fails --fail-on-errors.
        await translate(fresh, "de", { d: "D {unknown}" });
        const errors = await run(["status", "--fail-on-errors"], env, r0);
        expect(errors.stdout).toContain("de  4 translated (100%), 0 approved, 0 missing, 1 errors");
        expect({ code: errors.code, stderr: errors.stderr }).toEqual({ code: 3, stderr: "phrasebook: messages with errors: de (1)\n" });
      } finally {
        rmSync(r0, { recursive: true, force: true });
      }
    } finally {
      await fresh.stop();
    }
  });
});

describe("docs/automation.md \"pull\": one line for every file", () => {
  test("a file of a language the release lacks is skipped, said; a String Catalog as source: points to catalog:", async () => {
    const other = gitRepo({
      "phrasebook.yaml": "files:\n  - source: locales/en.json\n    translations: locales/{language}.json\n",
      "locales/en.json": '{"hello": "Hello"}\n',
      "locales/fr.json": '{"hello": "Bonjour"}\n',
    });
    try {
      await translate(d, "de", { hello: "Hallo" });
      const draft = await d.admin.post(`/projects/${d.pid}/releases`, { name: "Lines", tag: "lines-1" });
      expect((await d.admin.post(`/projects/${d.pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
      const r = await run(["pull", "--release", "lines-1"], d.env, other);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("skipped locales/fr.json: release lines-1 has no fr\n");
      expect(r.stdout).toContain("kept locales/en.json: it is the source file, which push sends and pull never overwrites\n");
      expect(r.stdout).toMatch(/^wrote locales\/de\.json \(de, lines-1, /m);
      writeFiles(other, { "phrasebook.yaml": "files:\n  - source: ios/Localizable.xcstrings\n" });
      fails(await run(["pull"], d.env, other), 1, "phrasebook.yaml: files[0]: a String Catalog is source and translations in one file: list it as catalog: ios/Localizable.xcstrings");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("product §6: pull never leaves a half-written file", () => {
  test("a download that breaks off writes nothing: every file stays as it was, and no temporary file is left", async () => {
    // The CDN is reached through a proxy that ends the pt-BR file half-way, as a dropped upstream
    // would: a chunked answer that simply stops, which fetch takes for a whole one. The server's
    // download_urls name the proxy (PHRASEBOOK_CDN_URL), an origin the client is told to trust.
    const port = await freePort();
    const cut = await deployment(["de", "pt-BR"], { env: { PHRASEBOOK_CDN_URL: `http://127.0.0.1:${port}/cdn` } });
    const proxy = Bun.serve({
      port,
      hostname: "127.0.0.1",
      async fetch(request) {
        const url = new URL(request.url);
        const upstream = await fetch(`${cut.server.url}${url.pathname}${url.search}`);
        if (!url.pathname.endsWith("/pt-BR.json")) return upstream;
        const bytes = new Uint8Array(await upstream.arrayBuffer());
        return new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(bytes.subarray(0, bytes.byteLength >> 1));
              setTimeout(() => controller.close(), 50); // short of its Content-Length: the connection ends early
            },
          }),
          { headers: { "content-type": "application/json", "content-length": String(bytes.byteLength) } },
        );
      },
    });
    const target = gitRepo({ "locales/de.json": '{"old": "alt"}\n', "locales/pt-BR.json": '{"old": "velho"}\n' });
    try {
      await cut.admin.key(cut.pid, "hello", { en: "Hello", de: "Hallo", "pt-BR": "Olá" });
      const draft = await cut.admin.post(`/projects/${cut.pid}/releases`, { name: "R", tag: "v1" });
      expect((await cut.admin.post(`/projects/${cut.pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
      const clientEnv = { ...cut.env, PHRASEBOOK_CDN_URL: `http://127.0.0.1:${port}` };
      const r = await run(["pull", "--out", "locales/{language}.json"], clientEnv, target);
      fails(r, 2, /^phrasebook: pull locales\/pt-BR\.json: the download of http:\/\/127\.0\.0\.1:\d+\/cdn\/p\/\w+\/r\/\w+\/pt-BR\.json is not a whole json file \(line \d+, column \d+: not valid JSON: /);
      // de downloaded fine, but nothing is written until every file is whole.
      expect(readFileSync(join(target, "locales/de.json"), "utf8")).toBe('{"old": "alt"}\n');
      expect(readFileSync(join(target, "locales/pt-BR.json"), "utf8")).toBe('{"old": "velho"}\n');
      expect(changedFiles(target)).toEqual([]);
      expect(readdirSync(join(target, "locales")).sort()).toEqual(["de.json", "pt-BR.json"]);
      // Once the network is whole again, both are written.
      proxy.stop(true);
      const direct = Bun.serve({ port, hostname: "127.0.0.1", fetch: (request) => fetch(`${cut.server.url}${new URL(request.url).pathname}`) });
      try {
        const ok = await run(["pull", "--out", "locales/{language}.json"], clientEnv, target);
        expect(ok.code).toBe(0);
        expect(changedFiles(target)).toEqual([" M locales/de.json", " M locales/pt-BR.json", "?? locales/en.json"]);
        expect(JSON.parse(readFileSync(join(target, "locales/pt-BR.json"), "utf8"))).toEqual({ hello: "Olá" });
      } finally {
        direct.stop(true);
      }
    } finally {
      proxy.stop(true);
      await cut.stop();
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe("product §6: progress on a terminal, plain lines in CI", () => {
  test("a file over 1 MB shows progress on a terminal only; the result line is the same either way", async () => {
    const big = Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`big.key.${i}`, `A value long enough to make the file over one megabyte, number ${i}`]));
    writeFiles(repo, { "big/en.json": JSON.stringify(big) });
    expect(readFileSync(join(repo, "big/en.json")).byteLength).toBeGreaterThan(1024 * 1024);
    const plain = await run(["push", "big/en.json", "--language", "en", "--dry-run"]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe("");
    expect(plain.stdout.split("\n")[0]).toMatch(/^big\/en\.json: 15000 created, 0 updated, \d+ unchanged, 0 deleted \(dry run: nothing was changed\)$/);
    expect(plain.stdout).not.toContain("\r");
    const onTerminal = await phrasebook(["push", "big/en.json", "--language", "en", "--dry-run"], { cwd: repo, env: d.env, tty: true });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toContain("\r\x1b[Kbig/en.json: uploading");
    expect(onTerminal.stdout).toContain("big/en.json: importing on the server (");
    expect(onTerminal.stdout).toContain(plain.stdout.split("\n")[0]);
    // In CI (CI=true, as GitHub Actions and GitLab set it) even a terminal gets plain lines.
    const inCi = await phrasebook(["push", "big/en.json", "--language", "en", "--dry-run"], { cwd: repo, env: { ...d.env, CI: "true" }, tty: true });
    expect(inCi.stdout).not.toContain("uploading");
    expect(existsSync(join(repo, "big"))).toBe(true);
  });
});
