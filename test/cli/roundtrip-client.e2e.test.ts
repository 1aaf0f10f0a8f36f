/**
 * Round trip through the client (docs/product.md §9, docs/automation.md "Round trip"): the sample
 * gen-l10n template and i18next project of test/fixtures/roundtrip/ pushed with the executable,
 * published and pulled back, each file JSON-equal to what was pushed (an ARB template apart from
 * `@@last_modified`): ARB messages named as the template named them (snake_case kept), a
 * language-only fallback file for a regional language without its sibling, nested JSON for a nested
 * source. The `@` entries a CDN ARB carries are the server's (docs/formats.md "ARB metadata");
 * test/cli/shape.test.ts checks that pull writes them under the template's names.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";
import { clientBinary, deployment, gitRepo, phrasebook, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

const FIXTURES = join(ROOT, "test/fixtures/roundtrip");
const messagesOf = (arb: Record<string, unknown>) => Object.fromEntries(Object.entries(arb).filter(([k]) => !k.startsWith("@")));
const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("gen-l10n template", () => {
  let d: Deployment;
  let repo: string;
  beforeAll(async () => {
    clientBinary();
    d = await deployment(["de", "pt-BR"]);
    repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: lib/l10n/app_en.arb\n    translations: lib/l10n/app_{locale}.arb\n" });
    cpSync(join(FIXTURES, "flutter"), join(repo, "lib/l10n"), { recursive: true });
    // Brazilian Portuguese, without a language-only pt: the German strings will do.
    const ptBR = read(join(FIXTURES, "flutter/app_de.arb"));
    writeFileSync(join(repo, "lib/l10n/app_pt_BR.arb"), JSON.stringify({ ...ptBR, "@@locale": "pt_BR" }, null, 2));
    // A gen-l10n project reads apostrophes as gen-l10n does (docs/automation.md "The syntax setting").
    expect((await d.admin.patch(`/projects/${d.pid}`, { message_syntax: "flutter" })).status).toBe(200);
  });
  afterAll(async () => {
    await d?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  test("pulled files name each message as the template did; pt-BR gets its app_pt.arb fallback, said in the output", async () => {
    const run = (args: string[]) => phrasebook(args, { cwd: repo, env: d.env });
    // No message of the template or its translations is an error in a flutter project: the
    // German `'{query}'` is the placeholder between apostrophes, as gen-l10n reads it.
    const pushed = await run(["push", "--translations", "--fail-on-errors"]);
    expect(pushed).toMatchObject({ code: 0, stderr: "" });
    // (pt-BR borrows German plurals, so it has plural_category warnings; nothing else is said.)
    expect(pushed.stdout).not.toMatch(/\] (icu_syntax|placeholder_unknown|placeholder_missing):/);
    expect((await run(["publish", "--name", "R", "--tag", "v1"])).code).toBe(0);

    const pulled = await run(["pull", "--out", "out/app_{locale}.arb"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout.split("\n").filter(Boolean).map((l) => l.replace(/, \d+ KB\)$/, ")"))).toEqual([
      "wrote out/app_de.arb (de, v1)",
      "wrote out/app_en.arb (en, v1)",
      "wrote out/app_pt_BR.arb (pt-BR, v1)",
      "wrote out/app_pt.arb (pt, gen-l10n's fallback for pt-BR, v1)",
    ]);
    const template = read(join(repo, "lib/l10n/app_en.arb"));
    const en = read(join(repo, "out/app_en.arb"));
    // Every name as authored (snake_case too), every value and `@` entry as pushed: the template
    // comes back JSON-equal apart from `@@last_modified` (docs/product.md §9).
    const withoutStamp = (arb: Record<string, unknown>) => Object.fromEntries(Object.entries(arb).filter(([k]) => k !== "@@last_modified"));
    expect(withoutStamp(en)).toEqual(withoutStamp(template));
    expect(messagesOf(en)).toEqual(messagesOf(template));
    // The translation: every message as pushed, under the template's names, and the template's
    // `@` entries beside them (docs/formats.md "ARB metadata").
    const de = read(join(repo, "out/app_de.arb"));
    expect(messagesOf(de)).toEqual(messagesOf(read(join(repo, "lib/l10n/app_de.arb"))));
    expect(Object.keys(messagesOf(de)).length).toBeGreaterThanOrEqual(30);
    for (const [k, v] of Object.entries(template)) if (k.startsWith("@") && !k.startsWith("@@")) expect([k, de[k]]).toEqual([k, v]);
    expect(de["@@locale"]).toBe("de");
    const pt = read(join(repo, "out/app_pt.arb"));
    expect(pt["@@locale"]).toBe("pt");
    expect(messagesOf(pt)).toEqual(messagesOf(read(join(repo, "out/app_pt_BR.arb"))));

    // --out onto the configured files still never overwrites the source (docs/automation.md "pull").
    const sourceBefore = readFileSync(join(repo, "lib/l10n/app_en.arb"), "utf8");
    const onto = await run(["pull", "--out", "lib/l10n/app_{locale}.arb", "--language", "en", "--language", "de"]);
    expect(onto).toMatchObject({ code: 0, stderr: "" });
    expect(onto.stdout).toContain("kept lib/l10n/app_en.arb: it is the source file, which push sends and pull never overwrites\n");
    expect(readFileSync(join(repo, "lib/l10n/app_en.arb"), "utf8")).toBe(sourceBefore);

    const none = await run(["pull", "--out", "none/app_{locale}.arb", "--no-fallback-files"]);
    expect(none.code).toBe(0);
    expect(existsSync(join(repo, "none/app_pt.arb"))).toBe(false);
    expect(existsSync(join(repo, "none/app_pt_BR.arb"))).toBe(true);
  });

  test("of two regional variants without a language-only sibling, the fallback is the first in code order", async () => {
    expect((await d.admin.post(`/projects/${d.pid}/languages`, { code: "pt-PT" })).status).toBe(201);
    const ptPT = read(join(repo, "lib/l10n/app_pt_BR.arb"));
    writeFileSync(join(repo, "lib/l10n/app_pt_PT.arb"), JSON.stringify({ ...ptPT, "@@locale": "pt_PT", appTitle: "Lista de compras (PT)" }, null, 2));
    const run = (args: string[]) => phrasebook(args, { cwd: repo, env: d.env });
    expect((await run(["push", "lib/l10n/app_pt_PT.arb", "--fail-on-errors"])).code).toBe(0);
    expect((await run(["publish", "--name", "R2", "--tag", "v2"])).code).toBe(0);
    const pulled = await run(["pull", "--out", "two/app_{locale}.arb"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/^wrote two\/app_pt\.arb \(pt, gen-l10n's fallback for pt-BR, v2, \d+ KB\)$/m);
    expect(pulled.stdout.match(/fallback/g)).toHaveLength(1);
    expect(read(join(repo, "two/app_pt.arb")).appTitle).toBe(read(join(repo, "two/app_pt_BR.arb")).appTitle);
    expect(read(join(repo, "two/app_pt_PT.arb")).appTitle).toBe("Lista de compras (PT)");
  });
});

describe("i18next project", () => {
  let d: Deployment;
  let repo: string;
  beforeAll(async () => {
    d = await deployment(["fr", "pl", "ar"]);
    repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: locales/en.json\n    translations: locales/{language}.json\n" });
    cpSync(join(FIXTURES, "i18next"), join(repo, "locales"), { recursive: true });
    const r = await d.admin.patch(`/projects/${d.pid}`, { message_syntax: "i18next" });
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    await d?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  test("a nested source is pulled nested, equal to what was pushed; structure: flat writes flat; a key that is a prefix of another pulls flat and says why", async () => {
    const run = (args: string[]) => phrasebook(args, { cwd: repo, env: d.env });
    expect((await run(["push"])).code).toBe(0);
    for (const language of ["fr", "pl", "ar"]) {
      expect((await run(["push", `locales/${language}.json`, "--language", language, "--fail-on-errors"])).code).toBe(0);
    }
    // Each language needs its own plural forms only (English has no `_many`, Arabic all six), so
    // every language of the sample is complete (docs/messages.md "i18next plural forms").
    const status = await run(["status", "--min-progress", "100"]);
    expect(status).toMatchObject({ code: 0, stderr: "" });
    for (const code of ["en", "fr", "pl", "ar"]) expect(status.stdout).toMatch(new RegExp(`^${code} +\\d+ translated \\(100%\\)`, "m"));
    expect((await run(["publish", "--name", "R", "--tag", "v1"])).code).toBe(0);
    const pulled = await run(["pull", "--language", "en", "--language", "fr"]);
    expect(pulled).toMatchObject({ code: 0, stderr: "" });
    expect(pulled.stdout).toContain("kept locales/en.json: it is the source file");
    expect(read(join(repo, "locales/fr.json"))).toEqual(read(join(FIXTURES, "i18next/fr.json")));
    // Every language, the source's too, pulled elsewhere: each nested file equal to what was
    // pushed, with exactly the plural forms of its language (English no _many, Arabic all six).
    writeFileSync(join(repo, "all.yaml"), "files:\n  - source: locales/en.json\n    translations: pulled/{language}.json\n");
    const everywhere = await run(["pull", "--config", "all.yaml"]);
    expect(everywhere).toMatchObject({ code: 0, stderr: "" });
    for (const code of ["en", "fr", "pl", "ar"]) expect([code, read(join(repo, `pulled/${code}.json`))]).toEqual([code, read(join(FIXTURES, `i18next/${code}.json`))]);

    writeFileSync(join(repo, "flat.yaml"), "files:\n  - source: locales/en.json\n    translations: flat/{language}.json\n    structure: flat\n");
    expect((await phrasebook(["pull", "--config", "flat.yaml", "--language", "fr"], { cwd: repo, env: d.env })).code).toBe(0);
    const flat = read(join(repo, "flat/fr.json"));
    expect(Object.values(flat).every((v) => typeof v === "string")).toBe(true);
    expect(Object.keys(flat)).toContain("common.appName");

    await d.admin.key(d.pid, "common", { en: "Common", fr: "Commun" });
    expect((await run(["publish", "--name", "R2", "--tag", "v2"])).code).toBe(0);
    const prefix = await run(["pull", "--language", "fr"]);
    expect(prefix.code).toBe(0);
    expect(prefix.stdout).toContain('flat locales/fr.json: not nested as the source is, because the key "common" is also the prefix of "common.appName"');
  });
});
