/**
 * Import as sync (product §4, §6): a JSON, YAML or ARB file creates the missing keys and sets one
 * language's translations, writing the events the authoring routes write; `dry_run` reports and
 * changes nothing; `delete_missing` deletes the keys the base-language file lacks; every change is
 * listed (at most 1,000); inputs are bounded (docs/publishing.md §6 "Limits"); a bad file changes
 * nothing. (The formats themselves: test/formats/read.test.ts and test/authoring/import.test.ts;
 * large files in a worker thread: test/authoring/import-worker.test.ts.)
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const importing = (name: string, body: object, status: number, more: Partial<Scenario> = {}): Scenario => ({
  name,
  method: "POST",
  url: "/projects/:pid/import",
  body,
  status,
  ...more,
});

const json = (content: unknown, more: object = {}) => ({ language_code: "de", format: "json", content: JSON.stringify(content), ...more });
const base = (content: unknown, more: object = {}) => ({ language_code: "en", format: "json", content: JSON.stringify(content), ...more });

/** Everything an import could write, to compare before and after a dry run. */
function snapshot({ t }: ScenarioContext): Record<string, unknown> {
  return t.query<Record<string, unknown>>(
    `SELECT (SELECT count(*) FROM translation_keys) AS keys, (SELECT group_concat(key || '=' || coalesce(context, ''), '|') FROM translation_keys) AS names,
            (SELECT group_concat(value, '|') FROM translations) AS vals, (SELECT count(*) FROM translation_history) AS history,
            (SELECT count(*) FROM outbox_events) AS events`,
  )[0]!;
}

/** `n` entries named `bulk.<i>`. */
const many = (n: number, value = (i: number) => `Wert ${i}`) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`bulk.${i}`, value(i)]));

// Rows run concurrently, each with its own app: a snapshot is kept per app.
const snapshots = new WeakMap<object, Record<string, unknown>>();
const remember = (ctx: ScenarioContext) => void snapshots.set(ctx.t, snapshot(ctx));
const unchangedSince = (ctx: ScenarioContext) => expect(snapshot(ctx)).toEqual(snapshots.get(ctx.t)!);

const rows: Scenario[] = [
  importing("a member imports JSON: missing keys are created, changed values set, equal ones left alone", json({ cart: { empty: "Warenkorb leer" }, "new.key": "Neu", "checkout.title": "Kasse" }), 200, {
    as: "member",
    events: ["translation_created", "key_created", "translation_created"],
    async after({ as, ids }, body) {
      expect(body).toEqual({
        created_keys: 1,
        updated_translations: 2,
        updated_keys: 1,
        unchanged: 1,
        deleted_keys: 0,
        problems: 0,
        errors: 0,
        problem_items: [],
        changes: [
          { key: "cart.empty", change: "updated" },
          { key: "new.key", change: "created" },
        ],
      });
      const keys = (await as("member").get(`/projects/${ids.pid}/keys`)).body.items;
      expect(keys.map((k: any) => [k.key, k.translations.de?.value ?? null])).toEqual([
        ["cart.empty", "Warenkorb leer"],
        ["checkout.title", "Kasse"],
        ["new.key", "Neu"],
      ]);
    },
  }),
  importing("keys and values in any script, emoji too, arrive exactly as written", json({ "ünïcode.ключ": "Schlüssel 🔑", "日本語": "テキスト" }), 200, {
    async after({ as, ids }) {
      const keys = (await as("admin").get(`/projects/${ids.pid}/keys?search=${encodeURIComponent("🔑")}`)).body.items;
      expect(keys.map((k: any) => [k.key, k.translations.de.value])).toEqual([["ünïcode.ключ", "Schlüssel 🔑"]]);
    },
  }),
  importing("YAML, with the language code in any letter case", { language_code: "pt-br", format: "yaml", content: "checkout:\n  title: Finalizar\n" }, 200, {
    contains: ['"created_keys":0,"updated_translations":1,"updated_keys":1,"unchanged":0'],
    events: ["translation_created"],
  }),
  importing(
    "ARB: a message imports onto the key its name derives from, its description becomes the context",
    { language_code: "en", format: "arb", content: JSON.stringify({ "@@locale": "en", checkoutTitle: "Check out", "@checkoutTitle": { description: "Title of the checkout page" } }) },
    200,
    {
      contains: ['"created_keys":0,"updated_translations":1', '"changes":[{"key":"checkout.title","change":"updated"}]'],
      events: ["key_updated", "translation_updated"],
      async after({ as, ids }) {
        const key = (await as("admin").get(`/projects/${ids.pid}/keys/${ids.keyId}`)).body;
        expect(key.context).toBe("Title of the checkout page");
        expect(key.translations.en).toMatchObject({ value: "Check out", status: "translated" });
      },
    },
  ),
  importing(
    "product §6: a changed ARB description alone is an updated key, though no value changed",
    { language_code: "en", format: "arb", content: JSON.stringify({ "@@locale": "en", checkoutTitle: "Checkout", "@checkoutTitle": { description: "New context" } }) },
    200,
    { contains: ['"updated_translations":0,"updated_keys":1,"unchanged":0', '"changes":[{"key":"checkout.title","change":"updated"}]'], events: ["key_updated"] },
  ),
  importing("product §6: the same values again change nothing, write no event and list no change", json({ "checkout.title": "Kasse" }), 200, {
    contains: ['{"created_keys":0,"updated_translations":0,"updated_keys":0,"unchanged":1,"deleted_keys":0,"problems":0,"errors":0,"problem_items":[],"changes":[]}'],
    events: [],
  }),

  // dry_run (product §6)
  importing("product §6: dry_run reports exactly what the import would do and changes nothing, sending no webhook", base({ "checkout.title": "Pay", "brand.new": "New" }, { dry_run: true, delete_missing: true }), 200, {
    before: remember,
    events: [],
    async after(ctx, body) {
      expect(body).toEqual({
        created_keys: 1,
        updated_translations: 2,
        updated_keys: 1,
        unchanged: 0,
        deleted_keys: 1,
        problems: 0,
        errors: 0,
        problem_items: [],
        changes: [
          { key: "checkout.title", change: "updated" },
          { key: "brand.new", change: "created" },
          { key: "cart.empty", change: "deleted" },
        ],
      });
      unchangedSince(ctx);
      // The very import without dry_run does what the dry run said.
      const real = await ctx.as("admin").post(`/projects/${ctx.ids.pid}/import`, base({ "checkout.title": "Pay", "brand.new": "New" }, { delete_missing: true }));
      expect(real.body).toEqual(body);
    },
  }),
  importing("product §6: dry_run must be a boolean", json({ a: "b" }, { dry_run: "yes" }), 400, { contains: ['"dry_run"'] }),
  // A pull request's dry run with its base file (docs/automation.md "Checking a pull request").
  importing(
    "a dry run with base: the translation is checked against the base file it came with, and nothing is changed",
    json({ "pr.count": "{n} Dinge", "pr.hello": "Hallo {nmae}" }, { dry_run: true, base: { format: "json", content: JSON.stringify({ "pr.count": "{n} things", "pr.hello": "Hello {name}" }) } }),
    200,
    {
      before: remember,
      async after(ctx, body) {
        // Against no base at all the unknown {nmae} would pass unnoticed; against the base file it is an error, and {n} is none.
        expect(body.problem_items.map((p: any) => [p.key, p.code])).toEqual([
          ["pr.hello", "placeholder_unknown"],
          ["pr.hello", "placeholder_missing"],
        ]);
        expect(body).toMatchObject({ created_keys: 0, updated_translations: 2, errors: 1 });
        unchangedSince(ctx);
      },
    },
  ),
  importing("base is for dry runs only", json({ a: "b" }, { base: { format: "json", content: "{}" } }), 400, { contains: ['"base"', "only a dry run"] }),
  importing("a broken base file is a 400 naming base.content; nothing is changed", json({ a: "b" }, { dry_run: true, base: { format: "json", content: "{nope" } }), 400, {
    contains: ['"base.content"'],
    before: remember,
    after: (ctx) => unchangedSince(ctx),
  }),
  importing("a base file of another language is a 400 naming base.content", json({ a: "b" }, { dry_run: true, base: { format: "arb", content: JSON.stringify({ "@@locale": "de", a: "b" }) } }), 400, {
    contains: ['"base.content"', "is not en"],
  }),

  // delete_missing (product §6)
  importing("product §6: delete_missing deletes the keys the base-language file lacks, with key_deleted, after the file's own changes", base({ "checkout.title": "Checkout", extra: "Extra" }, { delete_missing: true }), 200, {
    events: ["key_created", "translation_created", "key_deleted"],
    async after({ as, ids, t }, body) {
      expect(body).toMatchObject({ created_keys: 1, updated_keys: 0, unchanged: 1, deleted_keys: 1, changes: [{ key: "extra", change: "created" }, { key: "cart.empty", change: "deleted" }] });
      const keys = (await as("admin").get(`/projects/${ids.pid}/keys`)).body.items.map((k: any) => k.key);
      expect(keys).toEqual(["checkout.title", "extra"]);
      // Its translations in every language and its history went with it.
      expect(t.query("SELECT count(*) AS n FROM translations WHERE key_id NOT IN (SELECT id FROM translation_keys)")).toEqual([{ n: 0 }]);
      expect(t.query("SELECT count(*) AS n FROM translation_history WHERE key_id NOT IN (SELECT id FROM translation_keys)")).toEqual([{ n: 0 }]);
    },
  }),
  importing("product §6: delete_missing is only for the base language: 400 naming it", json({ "checkout.title": "Kasse" }, { delete_missing: true }), 400, { contains: ['"delete_missing"', "base language (en)"] }),
  importing("delete_missing with a file of no entries would delete every key: 400", base({}, { delete_missing: true }), 400, { contains: ['"delete_missing"', "no entries"] }),
  importing("product §6: delete_missing must be a boolean", base({}, { delete_missing: 1 }), 400, { contains: ['"delete_missing"'] }),

  // changes (product §6)
  importing("product §6: changes lists at most 1,000 entries and says when there were more", json(many(1200)), 200, {
    async after(_ctx, body) {
      expect(body).toMatchObject({ created_keys: 1200, updated_translations: 1200, changes_truncated: true });
      expect(body.changes).toHaveLength(1000);
      expect(body.changes[999]).toEqual({ key: "bulk.999", change: "created" });
    },
  }),
  importing("product §6: exactly 1,000 changes are listed without changes_truncated", json({ ...many(999), "cart.empty": "Leer" }), 200, {
    async after(_ctx, body) {
      expect(body.changes).toHaveLength(1000); // 999 created, and cart.empty's first de value
      expect(body).not.toHaveProperty("changes_truncated");
    },
  }),

  // problems (product §6): read from what the checks stored for the file's values
  importing("product §6: problems counts the file's values whose stored check found something", json({ "checkout.title": "Kasse", "cart.empty": "Leer" }), 200, {
    before: ({ t }) => t.query("UPDATE translations SET error_count = 1 WHERE value = 'Kasse'"),
    contains: ['"problems":1'],
  }),

  // Refusals: nothing is written (the table checks it for every row of 400 and up)
  importing("a language the project lacks is 400 naming the field", { ...json({ a: "b" }), language_code: "fr" }, 400, { contains: ['"language_code"'] }),
  importing("an empty language code is 400 naming the field", { ...json({ a: "b" }), language_code: "" }, 400, { contains: ['"language_code"'] }),
  importing("an unknown format is 400 naming the field", { ...json({ a: "b" }), format: "xml" }, 400, { contains: ['"format"'] }),
  importing("missing content is 400 naming the field", { language_code: "de", format: "json" }, 400, { contains: ['"content"'] }),
  importing("content that does not parse is 400 naming the field, the line and the column", { language_code: "de", format: "json", content: '{\n  "a": "b"\n  "c": "d"\n}' }, 400, {
    contains: ['"content"', "line 3, column 3", "not valid JSON"],
  }),
  importing("a YAML syntax error names the line", { language_code: "de", format: "yaml", content: 'a: b\nc: "open\n' }, 400, { contains: ['"content"', "line 2", "not valid YAML"] }),
  importing("a value that is no string is 400 naming the field", json({ a: 5 }), 400, { contains: ['"content"', '"a"'] }),
  importing("one bad key refuses the whole file", json({ "good.key": "fine", "bad\tkey": "x" }), 400, { contains: ['"content"', "control characters"] }),
  importing("an ARB file of another locale is 400", { language_code: "de", format: "arb", content: JSON.stringify({ "@@locale": "fr", hello: "Bonjour" }) }, 400, { contains: ["@@locale"] }),
  importing("an unknown project is 404", json({ a: "b" }), 404, { url: "/projects/prj_00000000000000000000/import", contains: ["project not found"] }),

  // Limits (docs/publishing.md §6 "Limits"), each naming the limit
  importing("a file over 10 MB is 413 naming the limit", { language_code: "de", format: "json", content: JSON.stringify({ a: "ü".repeat(5_300_000) }) }, 413, {
    contains: ['"content"', "the limit is 10 MB"],
  }),
  importing("more than 100,000 entries is 413 naming the limit", { language_code: "de", format: "json", content: JSON.stringify(Object.fromEntries(Array.from({ length: 100_001 }, (_, i) => [`k${i}`, ""]))) }, 413, {
    contains: ['"content"', "more than 100,000 entries"],
  }),
  importing("a key longer than 512 characters is 400 naming the entry", json({ ["k".repeat(513)]: "v" }), 400, { contains: ['"content"', "at most 512 characters"] }),
  importing("nesting deeper than 32 levels is 400 naming the limit", { language_code: "de", format: "yaml", content: Array.from({ length: 40 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " v\n" }, 400, {
    contains: ['"content"', "deeper than 32 levels"],
  }),
  importing(
    "a YAML alias bomb is 400 naming the limit, before it expands",
    {
      language_code: "de",
      format: "yaml",
      content: ["a: &a {x: lol, y: lol, z: lol}", ...Array.from({ length: 8 }, (_, i) => `l${i}: &l${i} {p: *${i ? `l${i - 1}` : "a"}, q: *${i ? `l${i - 1}` : "a"}, r: *${i ? `l${i - 1}` : "a"}, s: *${i ? `l${i - 1}` : "a"}}`)].join("\n"),
    },
    400,
    { contains: ['"content"', "more than 100 aliases"] },
  ),
  importing("a value over 100,000 characters is 400 naming the entry", json({ long: "x".repeat(100_001) }), 400, { contains: ['"content"', 'entry "long"'] }),
];

// Rows read the outbox, where an event is written only for a subscriber (docs/webhooks.md "Events nobody subscribes to").
scenarios("import", standardWorld, rows, { subscribeAll: true });
coverage("import", rows);
