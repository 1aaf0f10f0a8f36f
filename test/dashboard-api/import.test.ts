/**
 * Import (product §4): a JSON, YAML or ARB file creates the missing keys and sets one language's
 * translations, writing the events the authoring routes write; a bad file changes nothing.
 * (The formats themselves: test/formats/ and test/publish/import.test.ts.)
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
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

const json = (content: unknown) => ({ language_code: "de", format: "json", content: JSON.stringify(content) });

const rows: Scenario[] = [
  importing("a member imports JSON: missing keys are created, changed values set, equal ones left alone", json({ cart: { empty: "Warenkorb leer" }, "new.key": "Neu", "checkout.title": "Kasse" }), 200, {
    as: "member",
    events: ["translation_created", "key_created", "translation_created"],
    async after({ as, ids }, body) {
      expect(body).toEqual({ created_keys: 1, updated_translations: 2 });
      const keys = (await as("member").get(`/projects/${ids.pid}/keys`)).body.items;
      expect(keys.map((k: any) => [k.key, k.translations.de?.value ?? null])).toEqual([
        ["cart.empty", "Warenkorb leer"],
        ["checkout.title", "Kasse"],
        ["new.key", "Neu"],
      ]);
    },
  }),
  importing("YAML, with the language code in any letter case", { language_code: "pt-br", format: "yaml", content: "checkout:\n  title: Finalizar\n" }, 200, {
    contains: ['{"created_keys":0,"updated_translations":1}'],
    events: ["translation_created"],
  }),
  importing(
    "ARB: a message imports onto the key its name derives from, its description becomes the context",
    { language_code: "en", format: "arb", content: JSON.stringify({ "@@locale": "en", checkoutTitle: "Check out", "@checkoutTitle": { description: "Title of the checkout page" } }) },
    200,
    {
      contains: ['{"created_keys":0,"updated_translations":1}'],
      events: ["key_updated", "translation_updated"],
      async after({ as, ids }) {
        const key = (await as("admin").get(`/projects/${ids.pid}/keys/${ids.keyId}`)).body;
        expect(key.context).toBe("Title of the checkout page");
        expect(key.translations.en).toEqual({ value: "Check out", status: "translated" });
      },
    },
  ),
  importing("the same values again change nothing and write no event", json({ "checkout.title": "Kasse" }), 200, { contains: ['{"created_keys":0,"updated_translations":0}'], events: [] }),
  importing("a language the project lacks is 400 naming the field", { ...json({ a: "b" }), language_code: "fr" }, 400, { contains: ['"language_code"'] }),
  importing("an empty language code is 400 naming the field", { ...json({ a: "b" }), language_code: "" }, 400, { contains: ['"language_code"'] }),
  importing("an unknown format is 400 naming the field", { ...json({ a: "b" }), format: "xml" }, 400, { contains: ['"format"'] }),
  importing("missing content is 400 naming the field", { language_code: "de", format: "json" }, 400, { contains: ['"content"'] }),
  importing("content that does not parse is 400 naming the field", { language_code: "de", format: "json", content: "{" }, 400, { contains: ['"content"', "not valid JSON"] }),
  importing("a value that is no string is 400 naming the field", json({ a: 5 }), 400, { contains: ['"content"', '"a"'] }),
  importing("one bad key refuses the whole file", json({ "good.key": "fine", "bad\tkey": "x" }), 400, { contains: ['"content"', "control characters"] }),
  importing("an ARB file of another locale is 400", { language_code: "de", format: "arb", content: JSON.stringify({ "@@locale": "fr", hello: "Bonjour" }) }, 400, { contains: ["@@locale"] }),
  importing("an unknown project is 404", json({ a: "b" }), 404, { url: "/projects/prj_00000000000000000000/import", contains: ["project not found"] }),
];

scenarios("import", standardWorld, rows);
coverage("import", rows);
