/**
 * A Flutter team, its client part (docs/automation.md "Pull keeps the repository's shape",
 * docs/product.md §9 "ARB"): a gen-l10n template and its translations in phrasebook.yaml, in
 * a `flutter` project, pushed, translated through the API, pulled with the compiled executable.
 * Pushing and pulling right away changes no file; after the translators, `git diff` shows only
 * their strings: an ARB translation without `@key` entries gets none, one with them gets the new
 * message's, the template is never written. (The translator's side in the browser is the
 * dashboard's suite.)
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { changedFiles, deployment, git, gitRepo, phrasebook, type Deployment } from "../cli/client.ts";
import { publish } from "../helpers/releases.ts";

setDefaultTimeout(50_000);

const TEMPLATE = `{
  "@@locale": "en",
  "appTitle": "Shop",
  "@appTitle": {
    "description": "The app's title"
  },
  "greeting": "Hello {name}",
  "@greeting": {
    "description": "Greets the person signed in",
    "placeholders": {
      "name": {
        "type": "String",
        "example": "Ada"
      }
    }
  },
  "cartItems": "{count, plural, =0{No items} =1{One item} other{{count} items}}",
  "@cartItems": {
    "placeholders": {
      "count": {
        "type": "int"
      }
    }
  },
  "searchFor": "Search for '{query}'",
  "@searchFor": {
    "placeholders": {
      "query": {
        "type": "String"
      }
    }
  },
  "checkout": "Check out"
}
`;
/** German: no @key entries, its own order, four spaces. */
const DE = `{
    "@@locale": "de",
    "greeting": "Hallo {name}",
    "appTitle": "Laden",
    "cartItems": "{count, plural, =0{Keine Artikel} =1{Ein Artikel} other{{count} Artikel}}"
}
`;
/** French: with the @key entries of the messages it has. */
const FR = `{
  "@@locale": "fr",
  "appTitle": "Boutique",
  "@appTitle": {
    "description": "The app's title"
  },
  "greeting": "Bonjour {name}"
}
`;

let d: Deployment;
let repo: string;

beforeAll(async () => {
  d = await deployment(["de", "fr"]);
  expect((await d.admin.patch(`/projects/${d.pid}`, { message_syntax: "flutter" })).status).toBe(200);
  repo = gitRepo({
    "l10n.yaml": "arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\noutput-localization-file: app_localizations.dart\n",
    "phrasebook.yaml": "files:\n  - source: lib/l10n/app_en.arb\n    translations: lib/l10n/app_{locale}.arb\n",
    "lib/l10n/app_en.arb": TEMPLATE,
    "lib/l10n/app_de.arb": DE,
    "lib/l10n/app_fr.arb": FR,
  });
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const run = (args: string[]) => phrasebook(args, { cwd: repo, env: d.env });

async function setValue(code: string, key: string, value: string): Promise<void> {
  const keys = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items as { id: string; key: string }[];
  const r = await d.admin.put(`/projects/${d.pid}/keys/${keys.find((k) => k.key === key)!.id}/translations/${code}`, { value });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe("a Flutter team: gen-l10n template and translations", () => {
  test("push with translations, publish, pull right away: no file changes", async () => {
    const pushed = await run(["push", "--translations", "--fail-on-errors"]);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    await publish(d.admin, d.pid, "v1");
    const pulled = await run(["pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toBe(
      "kept lib/l10n/app_en.arb: it is the source file, which push sends and pull never overwrites\nunchanged lib/l10n/app_de.arb (de, v1)\nunchanged lib/l10n/app_fr.arb (fr, v1)\nnothing written: every file already holds what release v1 has (2 unchanged, 1 source file kept)\n",
    );
    expect(changedFiles(repo)).toEqual([]);
  });

  test("after the translators, git diff shows their strings only; @key entries only where the file has them", async () => {
    await setValue("de", "greeting", "Servus {name}");
    await setValue("de", "checkout", "Zur Kasse");
    await setValue("fr", "searchFor", "Rechercher « {query} »");
    await publish(d.admin, d.pid, "v2");
    const pulled = await run(["pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(changedFiles(repo)).toEqual([" M lib/l10n/app_de.arb", " M lib/l10n/app_fr.arb"]);
    expect(readFileSync(join(repo, "lib/l10n/app_de.arb"), "utf8")).toBe(
      DE.replace("Hallo {name}", "Servus {name}").replace('other{{count} Artikel}}"\n', 'other{{count} Artikel}}",\n    "checkout": "Zur Kasse"\n'),
    );
    expect(readFileSync(join(repo, "lib/l10n/app_fr.arb"), "utf8")).toBe(
      FR.replace(
        '"greeting": "Bonjour {name}"\n',
        '"greeting": "Bonjour {name}",\n  "searchFor": "Rechercher « {query} »",\n  "@searchFor": {\n    "placeholders": {\n      "query": {\n        "type": "String"\n      }\n    }\n  }\n',
      ),
    );
    const diff = git(repo, "diff", "-U0").split("\n");
    expect(diff.filter((l) => /^-(?!--)/.test(l))).toEqual(['-    "greeting": "Hallo {name}",', '-    "cartItems": "{count, plural, =0{Keine Artikel} =1{Ein Artikel} other{{count} Artikel}}"', '-  "greeting": "Bonjour {name}"']);
    // Pushed back, the pulled files change nothing.
    const back = await run(["push", "--translations", "--dry-run"]);
    expect(back.stdout.split("\n").filter((l) => l.startsWith("lib/"))).toEqual([
      "lib/l10n/app_en.arb: 0 created, 0 updated, 5 unchanged, 0 deleted (dry run: nothing was changed)",
      "lib/l10n/app_de.arb: 0 created, 0 updated, 4 unchanged, 0 deleted (dry run: nothing was changed)",
      "lib/l10n/app_fr.arb: 0 created, 0 updated, 3 unchanged, 0 deleted (dry run: nothing was changed)",
    ]);
  });

  test("a message added and translated in the working tree, not released yet, survives a pull", async () => {
    const de = readFileSync(join(repo, "lib/l10n/app_de.arb"), "utf8");
    writeFileSync(join(repo, "lib/l10n/app_en.arb"), TEMPLATE.replace('  "checkout": "Check out"\n', '  "checkout": "Check out",\n  "wishlist": "Wishlist"\n'));
    writeFileSync(join(repo, "lib/l10n/app_de.arb"), de.replace('"checkout": "Zur Kasse"\n', '"checkout": "Zur Kasse",\n    "wishlist": "Wunschliste"\n'));
    const pulled = await run(["pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain("unchanged lib/l10n/app_de.arb (de, v2)");
    expect(readFileSync(join(repo, "lib/l10n/app_de.arb"), "utf8")).toContain('"wishlist": "Wunschliste"');
  });
});
