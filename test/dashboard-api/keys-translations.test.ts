/**
 * Keys and translations (product §4, interface §2.6): members edit them; keys are kept exactly as
 * authored; every change writes its webhook event, a refused or unchanged save writes none.
 */
import { expect, test } from "bun:test";
import { openWorld, scenarios, type Scenario } from "../helpers/scenario.ts";
import { DE_FILES_NO_ONE, EN_FILES, JA_GREETING_BROKEN, messagesWorld } from "./messages-world.ts";
import { coverage } from "./routes.ts";
import { LISTING_KEYS, standardWorld } from "./world.ts";

const KEY_ID = /^key_[0-9A-Za-z]{20}$/;
const keysOf = (body: any) => body.items.map((k: any) => k.key);
const list = (query: string) => `/projects/:listPid/keys${query}`;

const BAD_KEYS: [string, unknown][] = [
  ['"key"', { key: "" }],
  ['"key"', { key: " padded" }],
  ['"key"', { key: "tab\there" }],
  ['"key"', { key: "x".repeat(513) }],
  ['"key"', { key: 5 }],
  ['"key"', {}],
  ['"context"', { key: "ok", context: 5 }],
  ['"context"', { key: "ok", context: "c".repeat(2001) }],
];

const UNICODE = "こんにちは 👋🏽 {name}\n\"quoted\" \\ back";

const rows: Scenario[] = [
  {
    name: "a member may list keys with their translations, 50 a page, sorted by key",
    as: "member",
    method: "GET",
    url: list(""),
    status: 200,
    after(_, body) {
      expect(body.page_info).toEqual({ total_count: 6, page: 1, page_size: 50, total_pages: 1 });
      expect(keysOf(body)).toEqual([...LISTING_KEYS].sort());
      expect(body.items.find((k: any) => k.key === "home.title")).toEqual({
        id: expect.stringMatching(KEY_ID),
        key: "home.title",
        context: null,
        arb_metadata: null,
        translations: { en: { value: "EN home.title", status: "translated", problems: [] } },
        open_comments: 0,
      });
    },
  },
  { name: "search ignores letter case", method: "GET", url: list("?search=HOME"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["home.subtitle", "home.title"]) },
  { name: "search takes % literally", method: "GET", url: list(`?search=${encodeURIComponent("%")}`), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["100%_done"]) },
  { name: "search takes _ literally", method: "GET", url: list("?search=_"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["100%_done", "cart.items_count"]) },
  { name: "search matches translation values", method: "GET", url: list(`?search=${encodeURIComponent("EN cart")}`), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["cart.items_count"]) },
  { name: "search matches the context", method: "GET", url: `/projects/:pid/keys?search=${encodeURIComponent("page tit")}`, status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["checkout.title"]) },
  {
    name: "pages",
    method: "GET",
    url: list("?page=2&page_size=4"),
    status: 200,
    after(_, body) {
      expect(body.page_info).toEqual({ total_count: 6, page: 2, page_size: 4, total_pages: 2 });
      expect(keysOf(body)).toEqual([...LISTING_KEYS].sort().slice(4));
    },
  },
  { name: "a page size above 500 is 500", method: "GET", url: list("?page_size=100000"), status: 200, contains: ['"page_size":500'] },
  {
    name: "a search pages with its true total (page and total come from one pass over the values)",
    method: "GET",
    url: list("?search=EN&page=2&page_size=4"),
    status: 200,
    after(_, body) {
      expect(body.page_info).toEqual({ total_count: 6, page: 2, page_size: 4, total_pages: 2 });
      expect(keysOf(body)).toEqual([...LISTING_KEYS].sort().slice(4));
    },
  },
  {
    name: "a search's page past the end is empty with the true total",
    method: "GET",
    url: list("?search=home&page=3"),
    status: 200,
    after: (_, body) => expect(body).toEqual({ items: [], page_info: { total_count: 2, page: 3, page_size: 50, total_pages: 1 } }),
  },
  ...["page=0", "page=-1", "page=abc", "page_size=0", "page_size=1.5"].map(
    (q): Scenario => ({ name: `${q} is 400 naming the parameter`, method: "GET", url: list(`?${q}`), status: 400, contains: [`"${q.split("=")[0]}"`] }),
  ),
  { name: "a search over 500 characters is 400 naming it", method: "GET", url: list(`?search=${"s".repeat(501)}`), status: 400, contains: ['"search"'] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/keys", status: 404, contains: ["project not found"] },

  { name: "a member may create a key, which writes key_created", as: "member", method: "POST", url: "/projects/:pid/keys", body: { key: "checkout.pay", context: "Button" }, status: 201, events: ["key_created"], after: (_, body) => expect(body).toEqual({ id: expect.stringMatching(KEY_ID), key: "checkout.pay", context: "Button", arb_metadata: null, translations: {}, open_comments: 0 }) },
  { name: "keys are kept exactly as written: another letter case is another key", method: "POST", url: "/projects/:pid/keys", body: { key: "Checkout.Title" }, status: 201, contains: ['"key":"Checkout.Title"'], events: ["key_created"] },
  { name: "a blank context is none", method: "POST", url: "/projects/:pid/keys", body: { key: "k", context: "  " }, status: 201, contains: ['"context":null'] },
  { name: "a key that exists is 409 and writes no event", method: "POST", url: "/projects/:pid/keys", body: { key: "checkout.title" }, status: 409, contains: ["already exists"], events: [] },
  ...BAD_KEYS.map(([field, body]): Scenario => ({ name: `${JSON.stringify(body).slice(0, 40)} is 400 naming ${field}`, method: "POST", url: "/projects/:pid/keys", body, status: 400, contains: [field], events: [] })),
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/keys", body: { key: "k" }, status: 404 },

  {
    name: "a member may read one key",
    as: "member",
    method: "GET",
    url: "/projects/:pid/keys/:keyId",
    status: 200,
    after: (_, body) =>
      expect(body).toEqual({
        id: expect.stringMatching(KEY_ID),
        key: "checkout.title",
        context: "Page title",
        arb_metadata: null,
        translations: { en: { value: "Checkout", status: "approved", problems: [] }, de: { value: "Kasse", status: "translated", problems: [] } },
        open_comments: 0,
      }),
  },
  { name: "an unknown key is 404", method: "GET", url: "/projects/:pid/keys/key_00000000000000000000", status: 404, contains: ["key not found"] },
  { name: "a key of another project is 404", method: "GET", url: "/projects/:otherPid/keys/:keyId", status: 404, contains: ["key not found"] },

  { name: "a member may rename a key and clear its context, which writes key_updated", as: "member", method: "PATCH", url: "/projects/:pid/keys/:keyId", body: { key: "checkout.heading", context: null }, status: 200, contains: ['"key":"checkout.heading"', '"context":null', '"Kasse"'], events: ["key_updated"] },
  { name: "saving the same name and context writes no event", method: "PATCH", url: "/projects/:pid/keys/:keyId", body: { key: "checkout.title", context: "Page title" }, status: 200, events: [] },
  { name: "another key's name is 409", method: "PATCH", url: "/projects/:pid/keys/:keyId", body: { key: "cart.empty" }, status: 409, events: [] },
  { name: "an empty name is 400 naming it", method: "PATCH", url: "/projects/:pid/keys/:keyId", body: { key: "" }, status: 400, contains: ['"key"'] },
  { name: "a context over 2000 characters is 400 naming it", method: "PATCH", url: "/projects/:pid/keys/:keyId", body: { context: "c".repeat(2001) }, status: 400, contains: ['"context"'] },
  { name: "an unknown key is 404", method: "PATCH", url: "/projects/:pid/keys/key_00000000000000000000", body: { key: "x" }, status: 404 },

  {
    name: "a member may delete a key, which writes key_deleted",
    as: "member",
    method: "DELETE",
    url: "/projects/:pid/keys/:keyId",
    status: 204,
    events: ["key_deleted"],
    async after({ as, ids }) {
      expect((await as("member").get(`/projects/${ids.pid}/keys/${ids.keyId}`)).status).toBe(404);
      expect((await as("member").delete(`/projects/${ids.pid}/keys/${ids.keyId}`)).status).toBe(404);
    },
  },
  { name: "an unknown key is 404", method: "DELETE", url: "/projects/:pid/keys/key_00000000000000000000", status: 404, events: [] },

  { name: "a member's first value writes translation_created", as: "member", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/pt-BR", body: { value: "Finalizar" }, status: 200, events: ["translation_created"], after: (_, body) => expect(body).toEqual({ key: "checkout.title", language_code: "pt-BR", value: "Finalizar", status: "translated", problems: [] }) },
  { name: "a changed value writes translation_updated", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "Zur Kasse" }, status: 200, contains: ['"status":"translated"'], events: ["translation_updated"] },
  {
    name: "a changed value turns approved back into translated",
    method: "PUT",
    url: "/projects/:pid/keys/:keyId/translations/en",
    body: { value: "Check out" },
    status: 200,
    contains: ['"status":"translated"'],
    events: ["translation_updated"],
    async after({ as, ids }) {
      expect((await as("admin").get(`/projects/${ids.pid}/keys/${ids.keyId}`)).body.translations.en).toEqual({ value: "Check out", status: "translated", problems: [] });
    },
  },
  { name: "the same value again keeps the approval and writes no event", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/en", body: { value: "Checkout" }, status: 200, contains: ['"status":"approved"'], events: [] },
  { name: "the language code is matched in any letter case", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/PT-br", body: { value: "x" }, status: 200, contains: ['"language_code":"pt-BR"'] },
  {
    name: "unicode, newlines, quotes and backslashes are stored exactly",
    method: "PUT",
    url: "/projects/:pid/keys/:plainKeyId/translations/en",
    body: { value: UNICODE },
    status: 200,
    async after({ as, ids }, body) {
      expect(body.value).toBe(UNICODE);
      expect((await as("member").get(`/projects/${ids.pid}/keys/${ids.plainKeyId}`)).body.translations.en.value).toBe(UNICODE);
    },
  },
  { name: "a value of 100,000 characters is taken", method: "PUT", url: "/projects/:pid/keys/:plainKeyId/translations/de", body: { value: "x".repeat(100_000) }, status: 200 },
  { name: "a value over 100,000 characters is 400 naming it", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "x".repeat(100_001) }, status: 400, contains: ['"value"'] },
  { name: "a value that is no string is 400 naming it", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: 5 }, status: 400, contains: ['"value"'] },
  { name: "a language the project lacks is 404", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/fr", body: { value: "x" }, status: 404, contains: ["language fr is not in this project"] },
  { name: "an unknown key is 404", method: "PUT", url: "/projects/:pid/keys/key_00000000000000000000/translations/de", body: { value: "x" }, status: 404 },

  { name: "a member may approve, which writes translation_approved", as: "member", method: "POST", url: "/projects/:pid/keys/:keyId/translations/de/approve", status: 200, events: ["translation_approved"], after: (_, body) => expect(body).toEqual({ key: "checkout.title", language_code: "de", value: "Kasse", status: "approved", problems: [] }) },
  { name: "approving an approved value writes no event", method: "POST", url: "/projects/:pid/keys/:keyId/translations/en/approve", status: 200, contains: ['"status":"approved"'], events: [] },
  { name: "a missing translation is 404", method: "POST", url: "/projects/:pid/keys/:keyId/translations/pt-BR/approve", status: 404, contains: ["has no pt-BR translation"] },
  { name: "a language the project lacks is 404", method: "POST", url: "/projects/:pid/keys/:keyId/translations/fr/approve", status: 404 },
  { name: "an unknown key is 404", method: "POST", url: "/projects/:pid/keys/key_00000000000000000000/translations/de/approve", status: 404 },
];

const intl = (query: string) => `/projects/:pid/keys${query}`;
const codesOf = (body: any) => body.items.map((k: any) => [k.key, Object.keys(k.translations).sort()]);
const SYNTAX_ERROR = { code: "icu_syntax", severity: "error", message: "The `{` at character 9 is never closed: a `}` is missing" };
const NO_ONE = { code: "plural_category", severity: "warning", message: "`{count}` has no `one` case, which German uses for 1; those numbers get the `other` text" };

/** product §7: findings ride on every translation; product §8: the editor's filters. */
const checkRows: Scenario[] = [
  {
    name: "product §7: each translation carries its findings",
    as: "member",
    method: "GET",
    url: "/projects/:pid/keys/:filesKeyId",
    status: 200,
    after: (_, body) =>
      expect(body.translations).toEqual({
        en: { value: EN_FILES, status: "translated", problems: [] },
        de: { value: DE_FILES_NO_ONE, status: "translated", problems: [NO_ONE] },
        fr: { value: "Message {count, plural, one {# truc} other {# trucs}", status: "translated", problems: [SYNTAX_ERROR] },
        ja: { value: "{count, plural, other {# 件}}", status: "translated", problems: [] },
      }),
  },
  {
    name: "product §7: a save is never refused for a finding; the answer says what was found, the webhook event does not",
    method: "PUT",
    url: "/projects/:pid/keys/:greetingKeyId/translations/de",
    body: { value: "Hallo {nom" },
    status: 200,
    events: ["translation_updated"],
    async after({ t }, body) {
      expect(body.problems).toEqual([{ code: "icu_syntax", severity: "error", message: "The `{` at character 7 is never closed: a `}` is missing" }]);
      const [event] = t.query<{ payload: string }>("SELECT payload FROM outbox_events ORDER BY id DESC LIMIT 1");
      expect(JSON.parse(event!.payload).data).toEqual({ key: "greeting", language_code: "de", value: "Hallo {nom", status: "translated" });
    },
  },
  {
    name: "product §7: a new base value rechecks the key's other translations against it",
    method: "PUT",
    url: "/projects/:pid/keys/:greetingKeyId/translations/en",
    body: { value: "Hello {user}" },
    status: 200,
    contains: ['"problems":[]'],
    async after({ as, ids }) {
      const t = (await as("member").get(`/projects/${ids.pid}/keys/${ids.greetingKeyId}`)).body.translations;
      expect(t.de.problems).toEqual([
        { code: "placeholder_unknown", severity: "error", message: "`{name}` is not in the English text; use `{user}`" },
        { code: "placeholder_missing", severity: "warning", message: "`{user}` from the English text is missing" },
      ]);
      expect(t.ja.problems).toEqual([
        { code: "placeholder_unknown", severity: "error", message: "`{cnt}` is not in the English text; use `{user}`" },
        { code: "placeholder_missing", severity: "warning", message: "`{user}` from the English text is missing" },
      ]);
    },
  },
  {
    name: "product §7: a base value is checked for syntax; its translations are then not compared with it",
    method: "PUT",
    url: "/projects/:pid/keys/:greetingKeyId/translations/en",
    body: { value: "Hello {name" },
    status: 200,
    contains: ['"code":"icu_syntax"'],
    async after({ as, ids }) {
      const t = (await as("member").get(`/projects/${ids.pid}/keys/${ids.greetingKeyId}`)).body.translations;
      expect(t.ja.problems).toEqual([]);
    },
  },
  { name: "product §8: keys with problems in any language", method: "GET", url: intl("?status=problems"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["files.count", "greeting"]) },
  { name: "product §8: keys with problems in one language", method: "GET", url: intl("?status=problems&language=de"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["files.count"]) },
  { name: "product §8: keys missing in a language", as: "member", method: "GET", url: intl("?status=missing&language=fr"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["greeting", "title"]) },
  { name: "product §8: translated means not yet approved", method: "GET", url: intl("?status=translated&language=de"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["files.count", "greeting"]) },
  { name: "product §8: approved ones", method: "GET", url: intl("?status=approved&language=DE"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["plain"]) },
  { name: "product §8: nothing missing in the base language", method: "GET", url: intl("?status=missing&language=en"), status: 200, contains: ['"items":[]', '"total_count":0'] },
  {
    name: "product §8: a filter counts and pages what it matches",
    method: "GET",
    url: intl("?status=missing&language=fr&page=2&page_size=1"),
    status: 200,
    after(_, body) {
      expect(keysOf(body)).toEqual(["title"]);
      expect(body.page_info).toEqual({ total_count: 2, page: 2, page_size: 1, total_pages: 2 });
    },
  },
  { name: "product §8: a filter and a search together", method: "GET", url: intl("?status=problems&search=greet"), status: 200, after: (_, body) => expect(keysOf(body)).toEqual(["greeting"]) },
  {
    name: "product §8: languages= returns only those languages' translations, every key still listed",
    method: "GET",
    url: intl("?languages=ja,EN"),
    status: 200,
    after: (_, body) =>
      expect(codesOf(body)).toEqual([
        ["files.count", ["en", "ja"]],
        ["greeting", ["en", "ja"]],
        ["plain", ["en"]],
        ["title", ["en"]],
      ]),
  },
  {
    name: "product §8: languages= with a status filter",
    method: "GET",
    url: intl("?status=problems&language=ja&languages=ja"),
    status: 200,
    after: (_, body) => expect(body.items.map((k: any) => [k.key, k.translations.ja.value])).toEqual([["greeting", JA_GREETING_BROKEN]]),
  },
  { name: "product §8: a status but its language is 400 naming language", method: "GET", url: intl("?status=missing"), status: 400, contains: ['"language"', "required with status=missing"] },
  { name: "product §8: a language without a status is 400 naming language", method: "GET", url: intl("?language=de"), status: 400, contains: ['"language"', "give status too"] },
  { name: "product §8: an unknown status is 400 naming it", method: "GET", url: intl("?status=broken&language=de"), status: 400, contains: ['"status"'] },
  { name: "product §8: a language the project lacks is 400 naming it", method: "GET", url: intl("?status=missing&language=xx"), status: 400, contains: ['"language"', "xx is not a language of this project"] },
  { name: "product §8: one unknown code in languages= is 400 naming it", method: "GET", url: intl("?languages=de,xx"), status: 400, contains: ['"languages"', "xx is not a language"] },
  { name: "product §8: an empty languages= is 400 naming it", method: "GET", url: intl("?languages="), status: 400, contains: ['"languages"', "an empty code"] },
  { name: "product §8: an empty entry in languages= is 400 naming it", method: "GET", url: intl("?languages=de,,en"), status: 400, contains: ['"languages"'] },
  { name: "product §8: languages= over 2000 characters is 400 naming it", method: "GET", url: intl(`?languages=${"de,".repeat(700)}de`), status: 400, contains: ['"languages"'] },
];

// Rows read the outbox, where an event is written only for a subscriber (docs/webhooks.md "Events nobody subscribes to").
scenarios("keys and translations", standardWorld, rows, { subscribeAll: true });
scenarios("message checks on keys and translations", messagesWorld, checkRows, { subscribeAll: true });
coverage("keys-translations", [...rows, ...checkRows]);

test("concurrent writes: different keys all land, one name is created once", async () => {
  const w = await openWorld(standardWorld, { subscribeAll: true });
  try {
    const member = w.as("member");
    const pid = w.ids.otherPid;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => member.post(`/projects/${pid}/keys`, { key: `k.${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(201));
    expect((await member.get(`/projects/${pid}/keys`)).body.page_info.total_count).toBe(40);
    const same = await Promise.all(Array.from({ length: 10 }, () => member.post(`/projects/${pid}/keys`, { key: "same" })));
    expect(same.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(w.t.query("SELECT event FROM outbox_events WHERE payload LIKE ?", '%"key":"same"%')).toEqual([{ event: "key_created" }]);
  } finally {
    await w.close();
  }
});
