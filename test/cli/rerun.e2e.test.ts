/**
 * A CI pipeline re-run must not fail for having run before (docs/automation.md "Re-running a
 * pipeline"): `publish --tag` publishes the draft a blocked run left or prints the release already
 * published; `push --fail-on-errors` gates a pull request even as a dry run; problems are named per
 * key; `status` percentages are exact; `push --add-languages` adds what the files need.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { clientBinary, deployment, gitRepo, phrasebook, writeFiles, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

let d: Deployment;
let repo: string;

beforeAll(async () => {
  clientBinary();
  d = await deployment(["de"]);
  repo = gitRepo({ "en.json": JSON.stringify({ hello: "Hello {name}", bye: "Bye" }) });
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const run = (args: string[]) => phrasebook(args, { cwd: repo, env: d.env });

describe("push --fail-on-errors and problems per key", () => {
  test("a broken message fails the dry run of a pull request with exit 3 and names the key; nothing is changed", async () => {
    expect((await run(["push", "en.json", "--language", "en"])).code).toBe(0);
    writeFiles(repo, { "de.json": JSON.stringify({ hello: "Hallo {nmae}", bye: "Tschüss" }) });
    const r = await run(["push", "de.json", "--language", "de", "--dry-run", "--fail-on-errors"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('  hello [de] placeholder_unknown: ');
    expect(r.stderr).toBe("phrasebook: push --fail-on-errors: 1 message error in the pushed files (dry run: nothing was changed)\n");
    expect((await d.admin.get(`/projects/${d.pid}/problems`)).body.items).toEqual([]);
    // Without the flag the same push passes, and says what is wrong.
    const plain = await run(["push", "de.json", "--language", "de"]);
    expect(plain.code).toBe(0);
    // The renamed placeholder is one line (its unknown half names both, docs/automation.md "status").
    expect(plain.stdout).toMatch(/^de\.json: 0 created, 2 updated, 0 unchanged, 0 deleted; 1 with message problems \(phrasebook status\)\n {2}hello \[de\] placeholder_unknown: .+; use `\{name\}`\n$/);
  });

  test("status lists the problem by key", async () => {
    const r = await run(["status"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nproblems:\n {2}hello \[de\] placeholder_unknown: .+; use `\{name\}`\n$/);
  });
});

describe("publish --tag is safe to re-run", () => {
  test("blocked: the problems are named and the draft stays; fixed: the same command publishes that draft; again: it prints the release, exit 0", async () => {
    const blocked = await run(["publish", "--name", "Build 1", "--tag", "ci-1"]);
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toMatch(/^ {2}hello \[de\] placeholder_unknown: .+\n$/);
    expect(blocked.stderr).toMatch(/^phrasebook: publish ci-1: 409 1 error in a message blocks publishing.*; the draft rel_\w+ stays, and publish --tag ci-1 publishes it once fixed\n$/);
    const again = await run(["publish", "--name", "Build 1", "--tag", "ci-1"]);
    expect(again.code).toBe(2);
    expect((await d.admin.get(`/projects/${d.pid}/releases`)).body.items.filter((r: { tag: string }) => r.tag === "ci-1")).toHaveLength(1);

    writeFiles(repo, { "de.json": JSON.stringify({ hello: "Hallo {name}", bye: "Tschüss" }) });
    expect((await run(["push", "de.json", "--language", "de", "--fail-on-errors"])).code).toBe(0);
    const published = await run(["publish", "--name", "Build 1", "--tag", "ci-1"]);
    expect(published).toMatchObject({ code: 0, stderr: "" });
    expect(published.stdout).toMatch(/^published rel_\w+: "Build 1", tag ci-1, 2 language\(s\)\n/);
    const releases = (await d.admin.get(`/projects/${d.pid}/releases`)).body.items.filter((r: { tag: string }) => r.tag === "ci-1");
    expect(releases.map((r: { status: string }) => r.status)).toEqual(["published"]);

    const rerun = await run(["publish", "--name", "Build 1", "--tag", "ci-1"]);
    expect(rerun).toMatchObject({ code: 0, stderr: "" });
    expect(rerun.stdout).toStartWith(`already published ${releases[0].id}: "Build 1", tag ci-1, 2 language(s)\nlatest URLs`);
  });
});

describe("status percentages and --add-languages", () => {
  test("23 of 40 is 57.5%: shown so, and it passes --min-progress 57.5 (not 57.6)", async () => {
    const en: Record<string, string> = {};
    const de: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      en[`k${i}`] = `Key ${i}`;
      if (i < 23) de[`k${i}`] = `Schlüssel ${i}`;
    }
    writeFiles(repo, { "en.json": JSON.stringify(en), "de.json": JSON.stringify(de) });
    expect((await run(["push", "en.json", "--language", "en", "--delete-missing"])).code).toBe(0);
    expect((await run(["push", "de.json", "--language", "de"])).code).toBe(0);
    const pass = await run(["status", "--min-progress", "57.5"]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain("de  23 translated (57.5%)");
    const fail = await run(["status", "--min-progress", "57.6"]);
    expect(fail.code).toBe(3);
    expect(fail.stderr).toBe("phrasebook: below 57.6% translated: de (57.5%)\n");
  });

  test("a share that does not end in one decimal is floored: 23 of 41 is 56.09...%, shown as 56%, below 56.1", async () => {
    const en: Record<string, string> = {};
    for (let i = 0; i < 41; i++) en[`k${i}`] = `Key ${i}`;
    writeFiles(repo, { "en.json": JSON.stringify(en) });
    expect((await run(["push", "en.json", "--language", "en"])).code).toBe(0);
    const pass = await run(["status", "--min-progress", "56"]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain("de  23 translated (56%), 0 approved, 18 missing");
    const fail = await run(["status", "--min-progress", "56.1"]);
    expect(fail).toMatchObject({ code: 3, stderr: "phrasebook: below 56.1% translated: de (56%)\n" });
  });

  test("problems are named one a line, the first 20, then how many more", async () => {
    const de: Record<string, string> = {};
    for (let i = 0; i < 25; i++) de[`k${i}`] = `Schlüssel {nummer}`;
    writeFiles(repo, { "de-broken.json": JSON.stringify(de) });
    const r = await run(["push", "de-broken.json", "--language", "de", "--dry-run", "--fail-on-errors"]);
    expect(r.code).toBe(3);
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("  "));
    expect(lines.slice(0, 20).every((l) => /^ {2}k\d+ \[de\] placeholder_unknown: /.test(l))).toBe(true);
    expect(lines.slice(20)).toEqual(["  ... and 5 more problems (phrasebook status, or the dashboard's problem list)"]);
  });

  test("push --add-languages creates the file's language first; without it the push says how", async () => {
    writeFiles(repo, { "fr.json": JSON.stringify({ k0: "Clé 0" }) });
    const refused = await run(["push", "fr.json", "--language", "fr"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("add it with \"phrasebook languages add fr\", or pass --add-languages");
    const dry = await run(["push", "fr.json", "--language", "fr", "--add-languages", "--dry-run"]);
    expect(dry).toMatchObject({ code: 0, stdout: "+ language fr (dry run: not added, so its files are not sent)\n" });
    const added = await run(["push", "fr.json", "--language", "fr", "--add-languages"]);
    expect(added).toMatchObject({ code: 0, stdout: "added language fr\nfr.json: 0 created, 1 updated, 0 unchanged, 0 deleted\n" });
    expect((await d.admin.get(`/projects/${d.pid}/languages`)).body.items.map((l: { code: string }) => l.code)).toContain("fr");
  });
});

describe("docs/automation.md \"languages\": languages from the command line", () => {
  test("phrasebook languages lists them; languages add adds each, says which it had already, and a re-run exits 0", async () => {
    const listed = await run(["languages"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^de {2}German\nen {2}English {2}\(base\)\n/);
    const added = await run(["languages", "add", "it", "es", "de"]);
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: "" });
    expect(added.stdout).toBe("added language it (Italian)\nadded language es (Spanish)\nde: already a language of App\n");
    expect((await run(["languages", "add", "it"])).stdout).toBe("it: already a language of App\n");
    expect(await run(["languages", "add"])).toMatchObject({ code: 1, stderr: "phrasebook: languages add needs one or more language codes, e.g. languages add fr pt-BR\n" });
    expect(await run(["languages", "add", "../x"])).toMatchObject({ code: 1, stderr: 'phrasebook: the file names a language "../x" that is no language code\n' });
    expect(await run(["languages", "remove", "it"])).toMatchObject({ code: 1 });
  });

  test("--add-languages works for files of several languages: an XLIFF file and a String Catalog", async () => {
    const fresh = await deployment([]);
    const there = gitRepo({
      "en.json": JSON.stringify({ greeting: "Hello", farewell: "Bye" }),
      "app.xcstrings": JSON.stringify({ sourceLanguage: "en", version: "1.0", strings: { greeting: { localizations: { en: { stringUnit: { state: "translated", value: "Hello" } }, ja: { stringUnit: { state: "translated", value: "こんにちは" } } } } } }, null, 2),
      "nl.xlf": '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="nl" datatype="plaintext" original="app"><body><trans-unit id="farewell"><source>Bye</source><target>Doei</target></trans-unit></body></file></xliff>\n',
    });
    const go = (args: string[]) => phrasebook(args, { cwd: there, env: fresh.env });
    try {
      expect((await go(["push", "en.json", "--language", "en"])).code).toBe(0);
      const refused = await go(["push", "nl.xlf"]);
      expect(refused).toMatchObject({ code: 1, stderr: 'phrasebook: nl.xlf: holds nl, which the project lacks (it has en); add it with "phrasebook languages add nl", or pass --add-languages\n' });
      const xliff = await go(["push", "nl.xlf", "--add-languages"]);
      expect(xliff.stderr).toBe("");
      expect(xliff.stdout).toStartWith("added language nl\nnl.xlf: ");
      const catalog = await go(["push", "app.xcstrings", "--add-languages"]);
      expect(catalog.stderr).toBe("");
      expect(catalog.stdout).toStartWith("added language ja\napp.xcstrings: ");
      const keys = (await fresh.admin.get(`/projects/${fresh.pid}/keys?page_size=500`)).body.items as { key: string; translations: Record<string, { value: string }> }[];
      expect(keys.find((k) => k.key === "farewell")!.translations.nl!.value).toBe("Doei");
      expect(keys.find((k) => k.key === "greeting")!.translations.ja!.value).toBe("こんにちは");
    } finally {
      await fresh.stop();
      rmSync(there, { recursive: true, force: true });
    }
  });
});

describe("a pull request that changes base strings and translations together", () => {
  let pr: Deployment;
  let prRepo: string;
  const prRun = (args: string[]) => phrasebook(args, { cwd: prRepo, env: pr.env });
  beforeAll(async () => {
    pr = await deployment(["de"]);
    prRepo = gitRepo({
      "phrasebook.yaml": "files:\n  - source: i18n/en.json\n    translations: i18n/{language}.json\n",
      "i18n/en.json": JSON.stringify({ items: "{count} items" }),
      "i18n/de.json": JSON.stringify({ items: "{count} Dinge" }),
    });
    expect((await prRun(["push", "--translations", "--fail-on-errors"])).code).toBe(0);
  });
  afterAll(async () => {
    await pr?.stop();
    if (prRepo) rmSync(prRepo, { recursive: true, force: true });
  });

  test("a renamed placeholder, changed in both files, passes the dry run: the translation is checked against the base it comes with", async () => {
    writeFiles(prRepo, { "i18n/en.json": JSON.stringify({ items: "{n} items" }), "i18n/de.json": JSON.stringify({ items: "{n} Dinge" }) });
    const r = await prRun(["push", "--translations", "--dry-run", "--fail-on-errors"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).not.toContain("placeholder_");
    // Nothing was changed: the server still holds the old strings, without findings.
    const keys = (await pr.admin.get(`/projects/${pr.pid}/keys`)).body.items;
    expect(keys.map((k: any) => [k.key, k.translations.en?.value, k.translations.de?.value])).toEqual([["items", "{count} items", "{count} Dinge"]]);
    expect((await pr.admin.get(`/projects/${pr.pid}/problems`)).body.items).toEqual([]);
  });

  test("a new key whose translation names a placeholder its new base string lacks fails the dry run, naming the key", async () => {
    writeFiles(prRepo, {
      "i18n/en.json": JSON.stringify({ items: "{count} items", greeting: "Hello {name}" }),
      "i18n/de.json": JSON.stringify({ items: "{count} Dinge", greeting: "Hallo {nmae}" }),
    });
    const r = await prRun(["push", "--translations", "--dry-run", "--fail-on-errors"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("  greeting [de] placeholder_unknown: ");
    expect(r.stderr).toBe("phrasebook: push --fail-on-errors: 1 message error in the pushed files (dry run: nothing was changed)\n");
    expect((await pr.admin.get(`/projects/${pr.pid}/keys`)).body.items.map((k: any) => k.key)).toEqual(["items"]);
  });
});
