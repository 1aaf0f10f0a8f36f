/**
 * The round trip of a repository through Phrasebook with the command-line client (product §6), as CI
 * runs it: the compiled executable in a real git repository, against a real server, with the
 * deletions' webhooks delivered to a real HTTPS receiver. Flutter's ARB files with gen-l10n's
 * `{locale}` names, then JSON (nested and flat) and YAML.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startReceiver, testCa, type Receiver } from "../helpers/https-receiver.ts";
import { changedFiles, clientBinary, deployment, git, gitRepo, phrasebook, translate, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

const APP_EN = {
  "@@locale": "en",
  appTitle: "Shop",
  "@appTitle": { description: "The title of the app, in the app bar" },
  cartCount: "{count, plural, =0{Your cart is empty} one{1 item} other{{count} items}}",
  "@cartCount": { description: "Items in the cart", placeholders: { count: { type: "int" } } },
  greeting: "Hello {name}!",
  "@greeting": { description: "On the home screen", placeholders: { name: { type: "String" } } },
  checkout: "Checkout",
};

const arb = (data: object) => JSON.stringify(data, null, 2) + "\n";
const CONFIG = "files:\n  - source: lib/l10n/app_en.arb\n    translations: lib/l10n/app_{locale}.arb\n";

describe("product §6: a Flutter repository's round trip", () => {
  let d: Deployment;
  let receiver: Receiver;
  let repo: string;

  beforeAll(async () => {
    clientBinary();
    receiver = await startReceiver();
    d = await deployment(["de", "pt-BR"], { env: { NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });
    const hook = await d.admin.post(`/projects/${d.pid}/webhooks`, { url: receiver.url(), events: ["key_deleted"] });
    expect(hook.status).toBe(201);
    repo = gitRepo({ "lib/l10n/app_en.arb": arb(APP_EN), "phrasebook.yaml": CONFIG, "pubspec.yaml": "name: shop\nflutter:\n  generate: true\n" });
  });
  afterAll(async () => {
    await d?.stop();
    receiver?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  const run = (...args: string[]) => phrasebook(args, { cwd: repo, env: d.env });

  test("push the base file; translate; publish; pull writes app_de.arb and app_pt_BR.arb; an unchanged push is 0 changes; a change lists exactly its keys; --delete-missing deletes with webhooks", async () => {
    // 1. push: the source as the base language, descriptions as contexts.
    const first = await run("push");
    expect(first).toEqual({ code: 0, stdout: "lib/l10n/app_en.arb: 4 created, 0 updated, 0 unchanged, 0 deleted\n", stderr: "" });
    const keys = (await d.admin.get(`/projects/${d.pid}/keys`)).body.items;
    expect(keys.map((k: any) => [k.key, k.context, k.translations.en.value])).toEqual([
      ["appTitle", "The title of the app, in the app bar", "Shop"],
      ["cartCount", "Items in the cart", APP_EN.cartCount],
      ["checkout", null, "Checkout"],
      ["greeting", "On the home screen", "Hello {name}!"],
    ]);
    // Made by the token, as the history says (product §8).
    const history = (await d.admin.get(`/projects/${d.pid}/keys/${keys[0].id}/history`)).body.items;
    expect(history[0]).toMatchObject({ by: { kind: "token", name: "CI" }, via: "import" });

    // 2. Translators work in the dashboard.
    await translate(d, "de", { appTitle: "Laden", cartCount: "{count, plural, =0{Dein Warenkorb ist leer} one{1 Artikel} other{{count} Artikel}}", greeting: "Hallo {name}!", checkout: "Zur Kasse" });
    await translate(d, "pt-BR", { appTitle: "Loja", greeting: "Olá {name}!" });

    // 3. publish.
    const published = await run("publish", "--name", "Build 1", "--tag", "v1");
    expect(published.code).toBe(0);
    expect(published.stderr).toBe("");
    const release = (await d.admin.get(`/projects/${d.pid}/releases`)).body.items.find((r: any) => r.tag === "v1");
    expect(published.stdout.split("\n")[0]).toBe(`published ${release.id}: "Build 1", tag v1, 3 language(s)`);
    const cdnSlug = (await d.admin.get(`/projects/${d.pid}`)).body.cdn_slug;
    expect(published.stdout).toContain(`  ${d.server.url}/cdn/p/${cdnSlug}/r/latest/pt-BR.arb\n`);
    for (const line of published.stdout.split("\n").filter((l) => l.startsWith("  "))) expect((await fetch(line.trim())).status).toBe(200);

    // 4. pull: every language but the source, in gen-l10n's file names.
    const pulled = await run("pull");
    expect({ code: pulled.code, stderr: pulled.stderr }).toEqual({ code: 0, stderr: "" });
    expect(pulled.stdout.split("\n").filter(Boolean).map((l) => l.replace(/, [\d.]+ [KM]B\)$/, ")"))).toEqual([
      "kept lib/l10n/app_en.arb: it is the source file, which push sends and pull never overwrites",
      "wrote lib/l10n/app_de.arb (de, v1)",
      "wrote lib/l10n/app_pt_BR.arb (pt-BR, v1)",
      // gen-l10n needs a language-only file beside a regional one (product §9).
      "wrote lib/l10n/app_pt.arb (pt, gen-l10n's fallback for pt-BR, v1)",
    ]);
    expect(changedFiles(repo)).toEqual(["?? lib/l10n/app_de.arb", "?? lib/l10n/app_pt.arb", "?? lib/l10n/app_pt_BR.arb"]); // nothing else, no temporary file
    const de = JSON.parse(readFileSync(join(repo, "lib/l10n/app_de.arb"), "utf8"));
    expect(de).toEqual({
      "@@locale": "de",
      appTitle: "Laden",
      "@appTitle": { description: "The title of the app, in the app bar" },
      cartCount: "{count, plural, =0{Dein Warenkorb ist leer} one{1 Artikel} other{{count} Artikel}}",
      "@cartCount": expect.objectContaining({ description: "Items in the cart", placeholders: { count: expect.any(Object) } }),
      checkout: "Zur Kasse",
      greeting: "Hallo {name}!",
      "@greeting": expect.objectContaining({ description: "On the home screen", placeholders: { name: expect.any(Object) } }),
    });
    const pt = JSON.parse(readFileSync(join(repo, "lib/l10n/app_pt_BR.arb"), "utf8"));
    expect(pt["@@locale"]).toBe("pt_BR");
    expect([pt.appTitle, pt.greeting, pt.checkout]).toEqual(["Loja", "Olá {name}!", undefined]);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "translations");

    // A second pull of the same release changes nothing in the repository.
    const again = await run("pull");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("unchanged lib/l10n/app_de.arb (de, v1)");
    expect(changedFiles(repo)).toEqual([]);

    // 5. An unchanged push reports 0 changes.
    expect((await run("push")).stdout).toBe("lib/l10n/app_en.arb: 0 created, 0 updated, 4 unchanged, 0 deleted\n");
    // And the pulled translations pushed back change nothing either.
    expect((await run("push", "--translations")).stdout).toBe(
      "lib/l10n/app_en.arb: 0 created, 0 updated, 4 unchanged, 0 deleted\n" +
        "lib/l10n/app_de.arb: 0 created, 0 updated, 4 unchanged, 0 deleted\n" +
        "lib/l10n/app_pt_BR.arb: 0 created, 0 updated, 2 unchanged, 0 deleted\n",
    );

    // 6. A changed file reports exactly the changed keys: a dry run first, then for real.
    const changed = { ...APP_EN, checkout: "Check out now", wishlist: "Wishlist", "@greeting": { description: "On the start screen" } };
    writeFileSync(join(repo, "lib/l10n/app_en.arb"), arb(changed));
    const dry = await run("push", "--dry-run");
    expect(dry).toEqual({
      code: 0,
      stdout: "lib/l10n/app_en.arb: 1 created, 2 updated, 2 unchanged, 0 deleted (dry run: nothing was changed)\n~ greeting\n~ checkout\n+ wishlist\n",
      stderr: "",
    });
    expect((await run("push")).stdout).toBe("lib/l10n/app_en.arb: 1 created, 2 updated, 2 unchanged, 0 deleted\n");

    // 7. Keys gone from the file: --dry-run --delete-missing lists them and changes nothing ...
    const { appTitle, "@appTitle": _meta, ...withoutTitle } = changed;
    writeFileSync(join(repo, "lib/l10n/app_en.arb"), arb({ ...withoutTitle, wishlist: undefined }));
    const keysBefore = (await d.admin.get(`/projects/${d.pid}/keys`)).body.items.map((k: any) => k.key);
    const preview = await run("push", "--dry-run", "--delete-missing");
    expect(preview.stdout).toBe("lib/l10n/app_en.arb: 0 created, 0 updated, 3 unchanged, 2 deleted (dry run: nothing was changed)\n- appTitle\n- wishlist\n");
    expect((await d.admin.get(`/projects/${d.pid}/keys`)).body.items.map((k: any) => k.key)).toEqual(keysBefore);
    expect(d.server.query("SELECT count(*) AS n FROM outbox_events WHERE event = 'key_deleted'")).toEqual([{ n: 0 }]);

    // ... and without --dry-run they go, each with its key_deleted webhook.
    expect((await run("push", "--delete-missing")).stdout).toBe("lib/l10n/app_en.arb: 0 created, 0 updated, 3 unchanged, 2 deleted\n");
    expect((await d.admin.get(`/projects/${d.pid}/keys`)).body.items.map((k: any) => k.key)).toEqual(["cartCount", "checkout", "greeting"]);
    const deliveries = await receiver.waitFor(2);
    expect(deliveries.map((r) => JSON.parse(r.body)).map((e) => [e.event, e.data.key]).sort()).toEqual([
      ["key_deleted", "appTitle"],
      ["key_deleted", "wishlist"],
    ]);
  });
});

describe("product §6: JSON (nested and flat) and YAML repositories", () => {
  let d: Deployment;
  beforeAll(async () => {
    clientBinary();
    d = await deployment(["de"]);
  });
  afterAll(async () => {
    await d?.stop();
  });

  for (const [label, ext, source, edited] of [
    ["nested JSON", "json", JSON.stringify({ home: { title: "Home", subtitle: "Welcome {name}" }, cart: { empty: "Empty" } }, null, 2), JSON.stringify({ home: { title: "Start", subtitle: "Welcome {name}" } })],
    ["flat JSON", "json", JSON.stringify({ "home.title": "Home", "home.subtitle": "Welcome {name}", "cart.empty": "Empty" }, null, 2), JSON.stringify({ "home.title": "Start", "home.subtitle": "Welcome {name}" })],
    ["YAML", "yaml", "home:\n  title: Home\n  subtitle: Welcome {name}\ncart:\n  empty: 'yes'\n", "home:\n  title: Start\n  subtitle: Welcome {name}\n"],
  ] as const) {
    test(`${label}: push, translate, publish, pull, push back unchanged, change, delete missing`, async () => {
      const dir = `locales-${label.replace(/ /g, "-").toLowerCase()}`;
      const repo = gitRepo({ [`${dir}/en.${ext}`]: source, "phrasebook.yaml": `files:\n  - source: ${dir}/en.${ext}\n    translations: ${dir}/{language}.${ext}\n` });
      try {
        const run = (...args: string[]) => phrasebook(args, { cwd: repo, env: d.env });
        // Each variant has its own keys in the one project: the first push wipes what the previous left.
        const first = await run("push", "--delete-missing");
        expect(first.code).toBe(0);
        expect(first.stdout).toMatch(new RegExp(`^${dir}/en\\.${ext}: \\d+ created, \\d+ updated, \\d+ unchanged, \\d+ deleted\\n$`));
        await translate(d, "de", { "home.title": "Startseite", "home.subtitle": "Willkommen {name}", "cart.empty": "Leer" });
        expect((await run("publish", "--name", label, "--tag", `v-${dir}`)).code).toBe(0);
        const pulled = await run("pull");
        expect(pulled.code).toBe(0);
        expect(pulled.stdout).toContain(`wrote ${dir}/de.${ext} (de, v-${dir},`);
        expect(changedFiles(repo)).toEqual([`?? ${dir}/de.${ext}`]);
        const text = readFileSync(join(repo, dir, `de.${ext}`), "utf8");
        // Keys exactly as authored (product §3); JSON in the source's shape (product §9), YAML flat.
        if (label === "nested JSON") expect(JSON.parse(text)).toEqual({ cart: { empty: "Leer" }, home: { subtitle: "Willkommen {name}", title: "Startseite" } });
        else if (ext === "json") expect(JSON.parse(text)).toEqual({ "cart.empty": "Leer", "home.subtitle": "Willkommen {name}", "home.title": "Startseite" });
        else expect(text).toBe('cart.empty: Leer\nhome.subtitle: "Willkommen {name}"\nhome.title: Startseite\n');
        // The pulled file pushed back, and the unchanged source: nothing changes.
        expect((await run("push", "--translations")).stdout).toBe(`${dir}/en.${ext}: 0 created, 0 updated, 3 unchanged, 0 deleted\n${dir}/de.${ext}: 0 created, 0 updated, 3 unchanged, 0 deleted\n`);
        // A changed source: exactly the changed and the missing keys.
        writeFileSync(join(repo, dir, `en.${ext}`), edited);
        expect((await run("push", "--dry-run", "--delete-missing")).stdout).toBe(`${dir}/en.${ext}: 0 created, 1 updated, 1 unchanged, 1 deleted (dry run: nothing was changed)\n~ home.title\n- cart.empty\n`);
        expect((await run("push", "--delete-missing")).stdout).toBe(`${dir}/en.${ext}: 0 created, 1 updated, 1 unchanged, 1 deleted\n`);
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });
  }
});
