/**
 * The problem list (product §7): every message-check finding of a project, in key then language
 * order, narrowed by language or severity, paged.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { messagesWorld } from "./messages-world.ts";
import { coverage } from "./routes.ts";

const ALL = [
  {
    key_id: ":filesKeyId",
    key: "files.count",
    language_code: "de",
    code: "plural_category",
    severity: "warning",
    message: "`{count}` has no `one` case, which German uses for 1; those numbers get the `other` text",
  },
  { key_id: ":filesKeyId", key: "files.count", language_code: "fr", code: "icu_syntax", severity: "error", message: "The `{` at character 9 is never closed: a `}` is missing" },
  { key_id: ":greetingKeyId", key: "greeting", language_code: "ja", code: "placeholder_unknown", severity: "error", message: "`{cnt}` is not in the English text; use `{name}`" },
  { key_id: ":greetingKeyId", key: "greeting", language_code: "ja", code: "placeholder_missing", severity: "warning", message: "`{name}` from the English text is missing" },
];

/** The expected items with the world's key ids filled in. */
const expected = (ids: Record<string, string>, pick: (p: (typeof ALL)[number]) => boolean = () => true) =>
  ALL.filter(pick).map((p) => ({ ...p, key_id: ids[p.key_id.slice(1)] }));

const rows: Scenario[] = [
  {
    name: "a member lists every finding, key by key, languages in order, errors of a value first",
    as: "member",
    method: "GET",
    url: "/projects/:pid/problems",
    status: 200,
    after({ ids }, body) {
      expect(body.items).toEqual(expected(ids));
      expect(body.page_info).toEqual({ total_count: 4, page: 1, page_size: 100, total_pages: 1 });
    },
  },
  { name: "only errors", method: "GET", url: "/projects/:pid/problems?severity=error", status: 200, after: ({ ids }, body) => expect(body.items).toEqual(expected(ids, (p) => p.severity === "error")) },
  { name: "only warnings", method: "GET", url: "/projects/:pid/problems?severity=warning", status: 200, after: ({ ids }, body) => expect(body.items).toEqual(expected(ids, (p) => p.severity === "warning")) },
  { name: "one language, its code in any letter case", method: "GET", url: "/projects/:pid/problems?language=JA", status: 200, after: ({ ids }, body) => expect(body.items).toEqual(expected(ids, (p) => p.language_code === "ja")) },
  { name: "a language and a severity together", method: "GET", url: "/projects/:pid/problems?language=ja&severity=warning", status: 200, after: ({ ids }, body) => expect(body.items).toEqual(expected(ids, (p) => p.language_code === "ja" && p.severity === "warning")) },
  {
    name: "pages",
    method: "GET",
    url: "/projects/:pid/problems?page=2&page_size=3",
    status: 200,
    after({ ids }, body) {
      expect(body.items).toEqual(expected(ids).slice(3));
      expect(body.page_info).toEqual({ total_count: 4, page: 2, page_size: 3, total_pages: 2 });
    },
  },
  { name: "a page size above 1000 is 1000", method: "GET", url: "/projects/:pid/problems?page_size=5000", status: 200, contains: ['"page_size":1000'] },
  { name: "a project without problems has an empty list", method: "GET", url: "/projects/:cleanPid/problems", status: 200, after: (_, body) => expect(body).toEqual({ items: [], page_info: { total_count: 0, page: 1, page_size: 100, total_pages: 0 } }) },
  {
    name: "a fixed value leaves the list at once",
    before: async ({ as, ids }) => expect((await as("member").put(`/projects/${ids.pid}/keys/${ids.filesKeyId}/translations/fr`, { value: "{count, plural, one {# truc} many {# de trucs} other {# trucs}}" })).status).toBe(200),
    method: "GET",
    url: "/projects/:pid/problems?language=fr",
    status: 200,
    after: (_, body) => expect(body.items).toEqual([]),
  },
  { name: "a language the project lacks is 400 naming the parameter", method: "GET", url: "/projects/:pid/problems?language=xx", status: 400, contains: ['"language"', "xx is not a language of this project"] },
  { name: "an unknown severity is 400 naming the parameter", method: "GET", url: "/projects/:pid/problems?severity=fatal", status: 400, contains: ['"severity"'] },
  { name: "page=0 is 400 naming the parameter", method: "GET", url: "/projects/:pid/problems?page=0", status: 400, contains: ['"page"'] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/problems", status: 404, contains: ["project not found"] },
  { name: "without a session it is 401", as: "anonymous", method: "GET", url: "/projects/:pid/problems", status: 401 },
];

scenarios("problems", messagesWorld, rows);
coverage("problems", rows);
