/**
 * A web team on i18next JSON, with CI (docs/automation.md section 3, docs/automation.md "Nothing
 * lost on day one", "Pull keeps the repository's shape"): the recipe exactly as the page prints it
 * (tests/teams/recipe.ts reads it from there), run with the server's own Node client on a
 * repository that already has German translations, against the compiled server. A pull never
 * replaces them with the release's nothing; after the first import, pulls change nothing until
 * translators do, and then only the lines of their strings.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { deployment, git, gitRepo, translate, writeFiles, type Deployment } from "../cli/client.ts";
import { publish } from "../helpers/releases.ts";
import { described, runFirstImport, runWorkflow } from "./recipe.ts";

setDefaultTimeout(50_000);

const GROUPS = ["home", "cart", "checkout", "account", "search", "errors"];
/** The English source: 62 strings in six groups, the way i18next projects nest them, with a plural. */
function english(): Record<string, Record<string, string>> {
  const en: Record<string, Record<string, string>> = {};
  for (const group of GROUPS) {
    en[group] = {};
    for (let i = 0; i < 10; i++) en[group]![`label${i}`] = `${group} label ${i} for {{name}}`;
  }
  en.cart!.items_one = "{{count}} item";
  en.cart!.items_other = "{{count}} items";
  return en;
}
const EN = english();
const DE_FILE = "public/locales/de.json";
/** The five strings the repository has translated, in its own order, four spaces, no final newline. */
const DE_TEXT = '{\n    "home": {\n        "label0": "Start-Etikett 0 für {{name}}",\n        "label1": "Start-Etikett 1 für {{name}}"\n    },\n    "cart": {\n        "label0": "Korb 0 für {{name}}",\n        "items_one": "{{count}} Artikel"\n    },\n    "errors": {\n        "label9": "Fehler 9 für {{name}}"\n    }\n}';
const FIVE = ["home.label0", "home.label1", "cart.label0", "cart.items_one", "errors.label9"];

let d: Deployment;
let repo: string;
const onMain = { event_name: "push", ref: "refs/heads/main" } as const;

beforeAll(async () => {
  d = await deployment(["de"]);
  expect((await d.admin.patch(`/projects/${d.pid}`, { message_syntax: "i18next" })).status).toBe(200);
  repo = gitRepo({
    ".gitignore": "phrasebook.mjs\n",
    "phrasebook.yaml": "files:\n  - source: public/locales/en.json\n    translations: public/locales/{language}.json\n",
    "public/locales/en.json": `${JSON.stringify(EN, null, 2)}\n`,
    [DE_FILE]: DE_TEXT,
  });
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

/** `git diff` of one file: the lines it removed and added. */
function diff(path: string): { removed: string[]; added: string[] } {
  const lines = git(repo, "diff", "-U0", "--", path).split("\n");
  return { removed: lines.filter((l) => /^-(?!--)/.test(l)).map((l) => l.slice(1)), added: lines.filter((l) => /^\+(?!\+\+)/.test(l)).map((l) => l.slice(1)) };
}

describe("a web team's CI on a repository that already has translations", () => {
  test("without the first import, pull stops rather than write the release's nothing over de.json (5 strings, {} on the server)", async () => {
    // The source pushed by a first CI run, then a release published before the translations were imported.
    const first = await runWorkflow(repo, d.env, onMain);
    expect(first.at(-1)!.name, described(first)).toBe("Pull the translations before the build");
    await publish(d.admin, d.pid, "v1.0.0");
    const runs = await runWorkflow(repo, d.env, onMain);
    const pull = runs.at(-1)!;
    expect(pull.name).toBe("Pull the translations before the build");
    expect(pull.code, described(runs)).toBe(1);
    expect(pull.stderr).toBe(
      `phrasebook: pull: ${DE_FILE} holds 5 de strings that release v1.0.0 has no de translation for ("home.label0", "home.label1", "cart.label0", "cart.items_one", "errors.label9"), and pulling would drop them. Send them first with "phrasebook push --translations" (then publish), or pass --force to replace the files anyway; nothing was written\n`,
    );
    expect(pull.stdout).toBe("");
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  test("the recipe as printed: the first import, then the workflow: every file stays as it is", async () => {
    const imported = await runFirstImport(repo, d.env);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`${DE_FILE}: 0 created, 5 updated, 0 unchanged, 0 deleted`);
    const runs = await runWorkflow(repo, d.env, onMain);
    expect(runs.map((r) => r.code), described(runs)).toEqual([0, 0, 0, 0]);
    expect(runs.at(-1)!.stdout).toBe(`kept public/locales/en.json: it is the source file, which push sends and pull never overwrites\nunchanged ${DE_FILE} (de, import-1)\nnothing written: every file already holds what release import-1 has (1 unchanged, 1 source file kept)\n`);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  test("a re-run after 56 German strings were done on the server while latest was older changes nothing; an older release is refused", async () => {
    const done: Record<string, string> = {};
    for (const group of GROUPS) for (let i = 0; i < 10; i++) if (!FIVE.includes(`${group}.label${i}`)) done[`${group}.label${i}`] = `${group} Etikett ${i} für {{name}}`;
    await translate(d, "de", done);
    expect(Object.keys(done)).toHaveLength(56);
    const runs = await runWorkflow(repo, d.env, onMain);
    expect(runs.map((r) => r.code), described(runs)).toEqual([0, 0, 0, 0]);
    expect(runs.at(-1)!.stdout).toContain(`unchanged ${DE_FILE} (de, import-1)`);
    expect(git(repo, "status", "--porcelain")).toBe("");
    const older = Bun.spawn(["node", "phrasebook.mjs", "pull", "--release", "v1.0.0"], { cwd: repo, env: { PATH: process.env.PATH ?? "", ...d.env }, stderr: "pipe" });
    expect(await older.exited).toBe(1);
    expect(await new Response(older.stderr).text()).toStartWith(`phrasebook: pull: ${DE_FILE} holds 5 de strings that release v1.0.0 has no de translation for`);
    expect(git(repo, "status", "--porcelain")).toBe("");
    // --force replaces the file anyway, as asked.
    const forced = Bun.spawnSync(["node", "phrasebook.mjs", "pull", "--release", "v1.0.0", "--force"], { cwd: repo, env: { PATH: process.env.PATH ?? "", ...d.env } });
    expect(forced.exitCode, forced.stderr.toString()).toBe(0);
    expect(readFileSync(join(repo, DE_FILE), "utf8")).toBe("{}");
    git(repo, "checkout", "--", DE_FILE);
  });

  test("a tag publishes once 90 % is translated; the pull adds only the translators' 56 lines, in the file's shape", async () => {
    const runs = await runWorkflow(repo, d.env, { event_name: "push", ref: "refs/tags/v1.1.0" });
    expect(runs.map((r) => r.name), described(runs)).toEqual(["Fetch the Phrasebook client (the server's own, for Node)", "Check the messages", "Publish a release once 90 % is translated (safe to re-run)", "Pull the translations before the build"]);
    expect(runs.every((r) => r.code === 0), described(runs)).toBe(true);
    expect(runs.at(-1)!.stdout).toContain(`wrote ${DE_FILE} (de, v1.1.0, `);
    const text = readFileSync(join(repo, DE_FILE), "utf8");
    expect(text.endsWith("}")).toBe(true); // still no final newline
    expect(text).toStartWith('{\n    "home": {\n        "label0": "Start-Etikett 0 für {{name}}",\n        "label1": "Start-Etikett 1 für {{name}}",\n        "label2": "home Etikett 2 für {{name}}",');
    const { removed, added } = diff(DE_FILE);
    if (process.env.SHOW_DIFF) console.log(git(repo, "diff", "--", DE_FILE));
    // Removed lines only gain a comma; every added line is one of the 56 strings or the braces of a group.
    for (const line of removed) expect(added).toContain(`${line},`);
    const strings = added.filter((l) => /^ {8}"/.test(l));
    expect(strings.filter((l) => !removed.some((r) => `${r},` === l))).toHaveLength(56);
    expect(added.filter((l) => !/^ {8}"/.test(l)).every((l) => /^ {4}("\w+": \{|\},?)$/.test(l))).toBe(true);
    // Pushed back, the pulled file changes nothing.
    const again = Bun.spawnSync(["node", "phrasebook.mjs", "push", DE_FILE, "--dry-run"], { cwd: repo, env: { PATH: process.env.PATH ?? "", ...d.env } });
    expect(again.stdout.toString()).toBe(`${DE_FILE}: 0 created, 0 updated, 61 unchanged, 0 deleted (dry run: nothing was changed)\n`);
  });

  test("the Node client names the line and column of a broken file (its JSON reader is bundled whole)", async () => {
    writeFiles(repo, { "broken/de.json": '{\n  "home": {\n    "label0": "x",\n  }\n}\n' });
    const r = Bun.spawnSync(["node", "phrasebook.mjs", "push", "broken/de.json", "--language", "de"], { cwd: repo, env: { PATH: process.env.PATH ?? "", ...d.env } });
    expect({ code: r.exitCode, stderr: r.stderr.toString() }).toEqual({ code: 1, stderr: "phrasebook: broken/de.json:4:3: not valid JSON: expected a property name in double quotes\n" });
  });
});
