/**
 * A native team (docs/automation.md "Pull keeps the repository's shape", "String Catalogs";
 * docs/automation.md "Nothing lost on day one"): an Android res tree and an iOS app's `.strings`, `.stringsdict` and String
 * Catalog in one phrasebook.yaml, pushed with their translations, translated through the API,
 * pulled with the compiled executable and with the server's Node client. Pushing and pulling right
 * away changes no file; after the translators, `git diff` shows only their strings; the files pass
 * `aapt2 compile` and `plistutil`, and keep what Xcode keeps.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedFiles, deployment, git, gitRepo, phrasebook, type Deployment } from "../cli/client.ts";
import { publish } from "../helpers/releases.ts";

setDefaultTimeout(50_000);

const RES = "android/app/src/main/res";
const IOS = "ios/App";

const ANDROID_EN = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Shop</string>
    <!-- Greets the signed-in person -->
    <string name="greeting">Hello, <xliff:g id="name">%1$s</xliff:g>!</string>
    <!-- The cart's title -->
    <string name="cart_title">Your cart</string>
    <string name="checkout">Check out</string>
    <plurals name="cart_items">
        <item quantity="one">%d item</item>
        <item quantity="other">%d items</item>
    </plurals>
    <string name="offline">You\\'re offline</string>
    <dimen name="margin">16dp</dimen>
</resources>
`;
/** German: no comments, its own order, three strings missing. */
const ANDROID_DE = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="greeting">Hallo, <xliff:g id="name">%1$s</xliff:g>!</string>
    <plurals name="cart_items">
        <item quantity="one">%d Artikel</item>
        <item quantity="other">%d Artikel</item>
    </plurals>
</resources>
`;
/** French: with comments, two-space indent, a plural without `many`. */
const ANDROID_FR = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
  <!-- Greets the signed-in person -->
  <string name="greeting">Bonjour, <xliff:g id="name">%1$s</xliff:g> !</string>
  <plurals name="cart_items">
    <item quantity="one">%d article</item>
    <item quantity="other">%d articles</item>
  </plurals>
</resources>
`;
const STRINGS_EN = `/* Title of the welcome screen */
"welcome_title" = "Welcome";

/* Button that signs in */
"sign_in" = "Sign in";

/* Shown without a network */
"error_network" = "No connection to %@";
`;
const STRINGS_DE = `"welcome_title" = "Willkommen";\n"sign_in" = "Anmelden";\n`;

function stringsdict(entries: Record<string, [string, string]>): string {
  const body = Object.entries(entries)
    .map(
      ([key, [one, other]]) =>
        `\t<key>${key}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>${one}</string>\n\t\t\t<key>other</key>\n\t\t\t<string>${other}</string>\n\t\t</dict>\n\t</dict>\n`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${body}</dict>\n</plist>\n`;
}

const unit = (value: string, indent: string) => `${indent}"stringUnit" : {\n${indent}  "state" : "translated",\n${indent}  "value" : "${value}"\n${indent}}`;
const loc = (code: string, value: string) => `        "${code}" : {\n${unit(value, "          ")}\n        }`;
/** A catalog as Xcode writes it: keys not in code order, extraction states Phrasebook does not store, version 1.1. */
const CATALOG = `{
  "sourceLanguage" : "en",
  "strings" : {
    "settings.title" : {
      "extractionState" : "extracted_with_value",
      "localizations" : {
${loc("de", "Einstellungen")},
${loc("en", "Settings")}
      }
    },
    "settings.logout" : {
      "comment" : "Signs out",
      "extractionState" : "manual",
      "localizations" : {
${loc("en", "Sign out")},
${loc("fr", "Se déconnecter")}
      }
    },
    "settings.notifications" : {
      "extractionState" : "extracted_with_value",
      "localizations" : {
${loc("en", "Notifications")}
      }
    }
  },
  "version" : "1.1"
}
`;

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);

let d: Deployment;
let repo: string;
let initial: string;

beforeAll(async () => {
  d = await deployment(["de", "fr"]);
  repo = gitRepo({
    ".gitignore": "phrasebook.mjs\n",
    "phrasebook.yaml": [
      "files:",
      `  - source: ${RES}/values/strings.xml`,
      `    translations: ${RES}/{android}/strings.xml`,
      `  - source: ${IOS}/en.lproj/Localizable.strings`,
      `    translations: ${IOS}/{language}.lproj/Localizable.strings`,
      `  - source: ${IOS}/en.lproj/Localizable.stringsdict`,
      `    translations: ${IOS}/{language}.lproj/Localizable.stringsdict`,
      `  - catalog: ${IOS}/Settings.xcstrings`,
      "",
    ].join("\n"),
    [`${RES}/values/strings.xml`]: ANDROID_EN,
    [`${RES}/values-de/strings.xml`]: ANDROID_DE,
    [`${RES}/values-fr/strings.xml`]: ANDROID_FR,
    [`${IOS}/en.lproj/Localizable.strings`]: STRINGS_EN,
    [`${IOS}/en.lproj/Localizable.stringsdict`]: stringsdict({ photos_count: ["%d photo", "%d photos"], days_left: ["%d day left", "%d days left"] }),
    [`${IOS}/de.lproj/Localizable.stringsdict`]: stringsdict({ photos_count: ["%d Foto", "%d Fotos"] }),
    [`${IOS}/Settings.xcstrings`]: CATALOG,
  });
  // Apple's older projects keep .strings in UTF-16.
  writeFileSync(join(repo, `${IOS}/de.lproj/Localizable.strings`), utf16(STRINGS_DE));
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "utf-16");
  initial = git(repo, "rev-parse", "HEAD").trim();
});
afterAll(async () => {
  await d?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const run = (args: string[], cwd = repo) => phrasebook(args, { cwd, env: d.env });

async function values(code: string): Promise<Record<string, string>> {
  const keys = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items as { key: string; translations: Record<string, { value: string }> }[];
  return Object.fromEntries(keys.flatMap((k) => (k.translations[code] ? [[k.key, k.translations[code]!.value]] : [])));
}

async function setValue(code: string, key: string, value: string): Promise<void> {
  const keys = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items as { id: string; key: string }[];
  const r = await d.admin.put(`/projects/${d.pid}/keys/${keys.find((k) => k.key === key)!.id}/translations/${code}`, { value });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The lines `git diff` removed and added in the repository. */
function diffLines(): { removed: string[]; added: string[] } {
  const lines = git(repo, "diff", "-U0", "--", ".", ":!*.strings").split("\n");
  return { removed: lines.filter((l) => /^-(?!--)/.test(l)).map((l) => l.slice(1)), added: lines.filter((l) => /^\+(?!\+\+)/.test(l)).map((l) => l.slice(1)) };
}

describe("a native team: Android and iOS in one phrasebook.yaml", () => {
  test("push with translations, publish, pull right away: no file changes", async () => {
    const pushed = await run(["push", "--translations"]);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain(`${IOS}/Settings.xcstrings: `);
    await publish(d.admin, d.pid, "v1");
    const pulled = await run(["pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain(`unchanged ${IOS}/Settings.xcstrings (de, en, fr, v1)`);
    expect(pulled.stdout).toContain(`kept ${RES}/values/strings.xml: it is the source file`);
    expect(pulled.stdout).toContain(`skipped ${IOS}/fr.lproj/Localizable.strings: release v1 has no fr string of ${IOS}/en.lproj/Localizable.strings\n`);
    expect(pulled.stdout).toMatch(/^nothing written: every file already holds what release v1 has \(5 unchanged, 3 source files kept, 2 skipped\)$/m);
    expect(changedFiles(repo)).toEqual([]);
  });

  test("after the translators, pull changes only their strings; aapt2 and plistutil take the files; the catalog keeps what Xcode keeps", async () => {
    const de = await values("de");
    await setValue("de", "greeting", de.greeting!.replace("Hallo", "Servus"));
    await setValue("de", "cart_title", "Dein Warenkorb");
    await setValue("fr", "cart_title", "Votre panier");
    await setValue("de", "sign_in", "Einloggen");
    await setValue("de", "error_network", "Keine Verbindung zu %@");
    await setValue("de", "days_left", "{n, plural, one {%d Tag übrig} other {%d Tage übrig}}");
    await setValue("de", "settings.notifications", "Mitteilungen");
    await setValue("fr", "checkout", "Payer");
    await publish(d.admin, d.pid, "v2");
    const pulled = await run(["pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);

    // Every line git shows removed is a string the translators changed (the UTF-16 file is read below).
    if (process.env.SHOW_DIFF) console.log(git(repo, "diff", "--", ".", ":!*.strings"));
    const { removed, added } = diffLines();
    expect(removed).toEqual([`    <string name="greeting">Hallo, <xliff:g id="name">%1$s</xliff:g>!</string>`]);
    expect(added).toContain(`    <string name="greeting">Servus, <xliff:g id="name">%1$s</xliff:g>!</string>`);
    // A new string goes where the source has it; with the base file's comment only in a file that has comments.
    const greetingDe = `    <string name="greeting">Servus, <xliff:g id="name">%1$s</xliff:g>!</string>\n`;
    expect(readFileSync(join(repo, `${RES}/values-de/strings.xml`), "utf8")).toBe(ANDROID_DE.replace(/ {4}<string name="greeting">.*\n/, `${greetingDe}    <string name="cart_title">Dein Warenkorb</string>\n`));
    expect(readFileSync(join(repo, `${RES}/values-fr/strings.xml`), "utf8")).toBe(
      ANDROID_FR.replace("  <plurals", `  <!-- The cart's title -->\n  <string name="cart_title">Votre panier</string>\n  <string name="checkout">Payer</string>\n  <plurals`),
    );
    // UTF-16 stays UTF-16, no blank line and no comment is added.
    const strings = readFileSync(join(repo, `${IOS}/de.lproj/Localizable.strings`));
    expect([...strings.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(strings.subarray(2).toString("utf16le")).toBe(`"welcome_title" = "Willkommen";\n"sign_in" = "Einloggen";\n"error_network" = "Keine Verbindung zu %@";\n`);
    const dict = readFileSync(join(repo, `${IOS}/de.lproj/Localizable.stringsdict`), "utf8");
    expect(dict.startsWith(stringsdict({ photos_count: ["%d Foto", "%d Fotos"] }).split("</dict>\n</plist>")[0]!)).toBe(true);
    expect(dict).toContain("<string>%d Tage übrig</string>");
    const catalog = readFileSync(join(repo, `${IOS}/Settings.xcstrings`), "utf8");
    const doc = JSON.parse(catalog);
    expect(Object.keys(doc.strings)).toEqual(["settings.title", "settings.logout", "settings.notifications"]);
    expect(doc.version).toBe("1.1");
    expect(doc.strings["settings.notifications"].extractionState).toBe("extracted_with_value");
    expect(Object.keys(doc.strings["settings.notifications"].localizations)).toEqual(["de", "en"]);
    expect(doc.strings["settings.notifications"].localizations.de.stringUnit.value).toBe("Mitteilungen");
    expect(catalog.startsWith(CATALOG.split('    "settings.notifications"')[0]!)).toBe(true); // the strings before it, byte for byte

    const compiledDir = mkdtempSync(join(tmpdir(), "phrasebook-aapt2-"));
    try {
      for (const folder of ["values", "values-de", "values-fr"]) {
        const compiled = Bun.spawnSync(["aapt2", "compile", join(repo, `${RES}/${folder}/strings.xml`), "-o", compiledDir], { stderr: "pipe" });
        expect(compiled.exitCode, compiled.stderr.toString()).toBe(0);
      }
    } finally {
      rmSync(compiledDir, { recursive: true, force: true });
    }
    for (const code of ["en", "de"]) {
      const checked = Bun.spawnSync(["plistutil", "-i", join(repo, `${IOS}/${code}.lproj/Localizable.stringsdict`), "-o", "/dev/null"], { stderr: "pipe" });
      expect(checked.exitCode, checked.stderr.toString()).toBe(0);
    }
    // --out onto the catalog is the catalog too: said, never a silent exit 0.
    expect(await run(["pull", "--out", `${IOS}/Settings.xcstrings`])).toMatchObject({ code: 0, stdout: `unchanged ${IOS}/Settings.xcstrings (de, en, fr, v2)\nnothing written: every file already holds what release v2 has (1 unchanged)\n` });
    // Pulled files pushed back change nothing.
    const back = await run(["push", "--translations", "--dry-run"]);
    expect(back.code, back.stderr).toBe(0);
    for (const line of back.stdout.split("\n").filter((l) => l.includes(": ") && !l.startsWith(" "))) expect(line).toMatch(/: 0 created, 0 updated, \d+ unchanged, 0 deleted/);
  });

  test("the Node client pulls the same bytes into a clone of the repository as it was", async () => {
    const clone = `${repo}-clone`;
    git(repo, "clone", "-q", repo, clone);
    try {
      git(clone, "checkout", "-q", initial);
      const fetched = Bun.spawnSync(["curl", "-fsSLo", "phrasebook.mjs", `${d.server.url}/client/phrasebook.mjs`], { cwd: clone });
      expect(fetched.exitCode).toBe(0);
      const r = Bun.spawnSync(["node", "phrasebook.mjs", "pull"], { cwd: clone, env: { PATH: process.env.PATH ?? "", ...d.env }, stderr: "pipe", stdout: "pipe" });
      expect(r.exitCode, r.stderr.toString()).toBe(0);
      for (const path of git(repo, "ls-files").split("\n").filter((p) => p.startsWith("android/") || p.startsWith("ios/"))) {
        expect(readFileSync(join(clone, path)).equals(readFileSync(join(repo, path))), path).toBe(true);
      }
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  test("a plain push sends the catalog whole: a German string changed in it reaches the server (interface: a catalog is source and translations)", async () => {
    const path = join(repo, `${IOS}/Settings.xcstrings`);
    const catalog = JSON.parse(readFileSync(path, "utf8"));
    const key = Object.keys(catalog.strings).find((k) => catalog.strings[k].localizations?.de?.stringUnit)!;
    catalog.strings[key].localizations.de.stringUnit.value = "Aus dem Katalog";
    writeFileSync(path, JSON.stringify(catalog, null, 2));
    const pushed = await run(["push"]);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect((await values("de"))[key]).toBe("Aus dem Katalog");
  });
});
