/**
 * A team hands its Android strings to a translation agency as XLIFF and takes the work back
 * (docs/formats.md "XLIFF", "Markup in values", "Plurals"; docs/messages.md "Tags"), all through
 * the compiled executable: the server, and the client in a git repository as CI runs it.
 *
 * The repository holds an Android res tree with what real strings hold: `<xliff:g>` around
 * placeholders, `<b>` and `<a href>` markup, plurals, `&amp;`, `&lt;`, apostrophes, a string not to
 * be translated, comments. It is pushed, published, and pulled as XLIFF 1.2 and 2.0: each file is
 * namespace-well-formed (`xmllint --noout`), translate-toolkit converts every unit (`xliff2po`,
 * then `msgfmt --check`), 2.0 follows the core structure. A translator changes strings in both
 * files (keeping the inline codes, as CAT tools do) and they are pushed back; the pulled Android
 * files pass `aapt2 compile`, the base file comes back byte for byte, and the German one differs
 * from the repository's only in the strings the translator changed: `git diff` shows those lines.
 *
 * On main 57466aa the XLIFF was not namespace-well-formed ("Namespace prefix xliff on g is not
 * defined"), xliff2po converted nothing, and `<b>` was raw XML in XLIFF 1.2.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { clientBinary, deployment, git, gitRepo, phrasebook, type Deployment } from "../cli/client.ts";

setDefaultTimeout(60_000);

const BASE = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Phrasebook</string>
    <!-- Shown with the number of items in the cart -->
    <plurals name="cart_items">
        <item quantity="one"><b>%d</b> item</item>
        <item quantity="other"><b>%d</b> items</item>
    </plurals>
    <!-- Title of the cart screen -->
    <string name="cart_title">Your cart &amp; wish list</string>
    <string name="delivery">Delivered at <xliff:g id="time" example="5 pm">%1$s</xliff:g></string>
    <string name="greeting">Hello, <b>%1$s</b>! You\\'re in.</string>
    <string name="terms">Read the <a href="https://example.test/terms?a=1&amp;b=2">terms</a> &lt;v2&gt;</string>
</resources>
`;

/** The repository's German file: every string but `terms` translated, in the same shape. */
const GERMAN = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Shown with the number of items in the cart -->
    <plurals name="cart_items">
        <item quantity="one"><b>%d</b> Artikel</item>
        <item quantity="other"><b>%d</b> Artikel</item>
    </plurals>
    <!-- Title of the cart screen -->
    <string name="cart_title">Dein Warenkorb &amp; Wunschzettel</string>
    <string name="delivery">Geliefert um <xliff:g id="time" example="5 pm">%1$s</xliff:g></string>
    <string name="greeting">Hallo, <b>%1$s</b>! Du bist drin.</string>
</resources>
`;

/** What the agency's work should make of the German file: two strings changed, `terms` translated. */
const GERMAN_AFTER = GERMAN.replace("Hallo, <b>%1$s</b>! Du bist drin.", "Hallo, <b>%1$s</b>! Schön, dass du da bist.")
  .replace("Geliefert um <xliff:g", "Zugestellt um <xliff:g")
  .replace("</resources>", '    <string name="terms">Lies die <a href="https://example.test/terms?a=1&amp;b=2">AGB</a> &lt;v2&gt;</string>\n</resources>');

const RES = "app/src/main/res";

describe("an agency hand-off: Android -> XLIFF 1.2 and 2.0 -> back", () => {
  let d: Deployment;
  let repo: string;
  beforeAll(async () => {
    clientBinary();
    d = await deployment(["de"]);
    repo = gitRepo({ [`${RES}/values/strings.xml`]: BASE, [`${RES}/values-de/strings.xml`]: GERMAN });
  });
  afterAll(async () => {
    await d?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });
  const run = async (...args: string[]) => {
    const r = await phrasebook(args, { cwd: repo, env: d.env });
    expect(r.code, `${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
    return r;
  };
  const tool = (cmd: string[]) => {
    const r = Bun.spawnSync(cmd, { cwd: repo, stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode ?? -1, out: `${r.stdout.toString()}${r.stderr.toString()}` };
  };
  const file = (path: string) => readFileSync(join(repo, path), "utf8");

  test("the res tree is pushed and published; as stored, &amp; is &, tags are tags, a literal < is &lt;", async () => {
    await run("push", `${RES}/values/strings.xml`, "--language", "en");
    await run("push", `${RES}/values-de/strings.xml`, "--language", "de");
    await run("publish", "--name", "v1", "--tag", "v1");
    const keys = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items;
    const en = Object.fromEntries(keys.map((k: any) => [k.key, k.translations.en.value]));
    expect(en.cart_title).toBe("Your cart & wish list");
    expect(en.terms).toBe('Read the <a href="https://example.test/terms?a=1&amp;b=2">terms</a> &lt;v2>');
    expect(en.delivery).toBe('Delivered at <xliff:g id="time" example="5 pm">%1$s</xliff:g>');
    // German plurals have one and other; nothing is missing, nothing to warn about.
    expect((await d.admin.get(`/projects/${d.pid}/problems`)).body.items).toEqual([]);
  });

  test("XLIFF 1.2: xmllint takes it, xliff2po converts every unit, msgfmt --check the PO", async () => {
    await run("pull", "--format", "xliff", "--out", "handoff/{language}.xlf", "--language", "de");
    const xliff = file("handoff/de.xlf");
    expect(xliff).not.toContain("<xliff:g");
    expect(xliff).not.toContain("<b>");
    const lint = tool(["xmllint", "--noout", "handoff/de.xlf"]);
    expect(lint.code, lint.out).toBe(0);
    const converted = tool(["xliff2po", "--progress=none", "-i", "handoff/de.xlf", "-o", "handoff/de.po"]);
    expect(converted.code, converted.out).toBe(0);
    const po = file("handoff/de.po");
    const units = xliff.match(/<trans-unit /g)!.length;
    expect(units).toBe(6);
    expect(po.match(/^#: /gm)).toHaveLength(units);
    expect(po.replace(/"\n"/g, "")).toContain('msgid "Delivered at <xliff:g id=\\"time\\" example=\\"5 pm\\">%1$s</xliff:g>"');
    const check = tool(["msgfmt", "--check", "-o", "/dev/null", "handoff/de.po"]);
    expect(check.code, check.out).toBe(0);
  });

  test("XLIFF 2.0: well-formed and in the core structure, inline codes naming the unit's original data", async () => {
    await run("pull", "--format", "xliff", "--xliff-version", "2.0", "--out", "handoff/{language}-2.0.xlf", "--language", "de");
    const xliff = file("handoff/de-2.0.xlf");
    const lint = tool(["xmllint", "--noout", "handoff/de-2.0.xlf"]);
    expect(lint.code, lint.out).toBe(0);
    expect(xliff).toContain('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">');
    // <unit> > <notes>? <originalData>? <segment> > <source> <target>?; every dataRef names a <data> of its unit.
    for (const unit of xliff.split("<unit ").slice(1)) {
      const order = ["<notes>", "<originalData>", "<segment"].map((tag) => unit.indexOf(tag)).filter((at) => at >= 0);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      const data = new Set([...unit.matchAll(/<data id="([^"]+)">/g)].map((m) => m[1]));
      for (const m of unit.matchAll(/dataRef(?:Start|End)?="([^"]+)"/g)) expect(data.has(m[1]), m[1]).toBe(true);
      expect(unit).not.toMatch(/<(b|a|xliff:g)[\s>]/);
    }
    expect(xliff).toMatch(/<unit id="u\d+" name="app_name" translate="no">/);
  });

  test("the translator's work pushed back in two rounds: the pulled Android files pass aapt2, the base one is unchanged, the German one differs by the strings changed", async () => {
    // 1.2: one string changed and the missing one translated, the inline codes kept as the tool shows them.
    let v12 = file("handoff/de.xlf");
    v12 = v12.replace("Du bist drin.</target>", "Schön, dass du da bist.</target>");
    const terms = /<trans-unit id="terms"[^>]*>\s*<source>([\s\S]*?)<\/source>/.exec(v12)!;
    const target = terms[1]!.replace(/^Read the /, "Lies die ").replace("</bpt>terms<ept", "</bpt>AGB<ept");
    v12 = v12.replace(terms[0], `${terms[0]}\n        <target state="translated">${target}</target>`);
    await Bun.write(join(repo, "handoff/de.xlf"), v12);
    const pushed12 = await run("push", "handoff/de.xlf");
    expect(pushed12.stdout).not.toContain("!");
    await run("publish", "--name", "v2", "--tag", "v2");
    // A second round in XLIFF 2.0, from the release the first round made: another string changed.
    await run("pull", "--format", "xliff", "--xliff-version", "2.0", "--out", "handoff/{language}-2.0.xlf", "--language", "de");
    const v20 = file("handoff/de-2.0.xlf");
    expect(v20).toContain("Schön, dass du da bist.");
    await Bun.write(join(repo, "handoff/de-2.0.xlf"), v20.replace('<target xml:space="preserve">Geliefert um', '<target xml:space="preserve">Zugestellt um'));
    const pushed20 = await run("push", "handoff/de-2.0.xlf");
    expect(pushed20.stdout).not.toContain("!");
    await run("publish", "--name", "v3", "--tag", "v3");

    await run("pull", "--out", `${RES}/{android}/strings.xml`, "--language", "en", "--language", "de");
    for (const folder of ["values", "values-de"]) {
      const compiled = tool(["aapt2", "compile", `${RES}/${folder}/strings.xml`, "-o", "."]);
      expect(compiled.code, compiled.out).toBe(0);
    }
    expect(file(`${RES}/values/strings.xml`)).toBe(BASE);
    expect(file(`${RES}/values-de/strings.xml`)).toBe(GERMAN_AFTER);
    const diff = git(repo, "diff", "--unified=0", "--", RES).split("\n").filter((l) => /^[-+] /.test(l));
    expect(diff).toEqual([
      "-    <string name=\"delivery\">Geliefert um <xliff:g id=\"time\" example=\"5 pm\">%1$s</xliff:g></string>",
      "-    <string name=\"greeting\">Hallo, <b>%1$s</b>! Du bist drin.</string>",
      "+    <string name=\"delivery\">Zugestellt um <xliff:g id=\"time\" example=\"5 pm\">%1$s</xliff:g></string>",
      "+    <string name=\"greeting\">Hallo, <b>%1$s</b>! Schön, dass du da bist.</string>",
      "+    <string name=\"terms\">Lies die <a href=\"https://example.test/terms?a=1&amp;b=2\">AGB</a> &lt;v2&gt;</string>",
    ]);
  });
});
