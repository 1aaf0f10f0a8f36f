/**
 * Translation history (product §8): every change of a translation, by whom (a user, by the name
 * they had), through what (edit, import, approve), and the value before, newest first. Restoring
 * an old value is saving it again: a new entry and a new event.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const history = (ctx: { as: (who: "admin" | "member") => any; ids: Record<string, string> }) =>
  ctx.as("member").get(`/projects/${ctx.ids.pid}/keys/${ctx.ids.keyId}/history`).then((r: any) => r.body.items);

const rows: Scenario[] = [
  {
    name: "a member reads the history the world left: set en, set de, approve en; newest first, by the admin",
    as: "member",
    method: "GET",
    url: "/projects/:pid/keys/:keyId/history",
    status: 200,
    after(_ctx, body) {
      expect(body.items.map((h: any) => [h.language_code, h.via, h.status, h.previous_value, h.value])).toEqual([
        ["en", "approve", "approved", "Checkout", "Checkout"],
        ["de", "edit", "translated", null, "Kasse"],
        ["en", "edit", "translated", null, "Checkout"],
      ]);
      for (const h of body.items) {
        expect(h.by).toEqual({ kind: "user", id: expect.stringMatching(/^usr_/), name: "Admin" });
        expect(h.at).toMatch(ISO);
        expect(Object.keys(h).sort()).toEqual(["at", "by", "language_code", "previous_value", "status", "value", "via"]);
      }
    },
  },
  {
    name: "an edit by the member is the newest entry, with the value before and the member's name",
    as: "member",
    method: "PUT",
    url: "/projects/:pid/keys/:keyId/translations/de",
    body: { value: "Zur Kasse" },
    status: 200,
    events: ["translation_updated"],
    async after(ctx) {
      const [newest] = await history(ctx);
      expect(newest).toMatchObject({ language_code: "de", value: "Zur Kasse", previous_value: "Kasse", status: "translated", via: "edit", by: { kind: "user", id: ctx.ids.memberId, name: "Mem" } });
    },
  },
  {
    name: "restoring the value before is saving it again: a new entry and a new event, never a rewrite of history",
    method: "PUT",
    url: "/projects/:pid/keys/:keyId/translations/de",
    body: { value: "Kasse" },
    status: 200,
    async before(ctx) {
      expect((await ctx.as("admin").put(`/projects/${ctx.ids.pid}/keys/${ctx.ids.keyId}/translations/de`, { value: "Bezahlen" })).status).toBe(200);
    },
    events: ["translation_updated"],
    async after(ctx) {
      const items = await history(ctx);
      expect(items.slice(0, 3).map((h: any) => [h.previous_value, h.value])).toEqual([
        ["Bezahlen", "Kasse"],
        ["Kasse", "Bezahlen"],
        ["Checkout", "Checkout"],
      ]);
    },
  },
  {
    name: "saving the same value again changes nothing and writes no entry",
    method: "PUT",
    url: "/projects/:pid/keys/:keyId/translations/de",
    body: { value: "Kasse" },
    status: 200,
    events: [],
    async after(ctx) {
      expect(await history(ctx)).toHaveLength(3);
    },
  },
  {
    name: "an import is an entry per changed value, via import, by whoever imported",
    as: "member",
    method: "POST",
    url: "/projects/:pid/import",
    body: { language_code: "de", format: "json", content: JSON.stringify({ checkout: { title: "Kasse!" } }) },
    status: 200,
    async after(ctx) {
      const [newest] = await history(ctx);
      expect(newest).toMatchObject({ language_code: "de", value: "Kasse!", previous_value: "Kasse", via: "import", by: { name: "Mem" } });
    },
  },
  {
    name: "deleting the user keeps the entries, with the name they had",
    method: "DELETE",
    url: "/users/:memberId",
    status: 204,
    async before(ctx) {
      expect((await ctx.as("member").put(`/projects/${ctx.ids.pid}/keys/${ctx.ids.keyId}/translations/pt-BR`, { value: "Finalizar" })).status).toBe(200);
    },
    async after(ctx) {
      const items = (await ctx.as("admin").get(`/projects/${ctx.ids.pid}/keys/${ctx.ids.keyId}/history`)).body.items;
      expect(items[0]).toMatchObject({ language_code: "pt-BR", by: { kind: "user", id: ctx.ids.memberId, name: "Mem" } });
    },
  },
  {
    name: "deleting the key deletes its history with it",
    method: "DELETE",
    url: "/projects/:pid/keys/:keyId",
    status: 204,
    after(ctx) {
      expect(ctx.t.query("SELECT count(*) AS n FROM translation_history h JOIN translation_keys k ON k.id = h.key_id WHERE k.public_id = ?", ctx.ids.keyId)).toEqual([{ n: 0 }]);
      expect(ctx.t.query<{ n: number }>("SELECT count(*) AS n FROM translation_history")[0]!.n).toBeGreaterThan(0);
    },
  },
  { name: "an unknown key is 404", as: "member", method: "GET", url: "/projects/:pid/keys/key_00000000000000000000/history", status: 404, contains: ["key not found"] },
  { name: "another project's key is 404 in this one", as: "member", method: "GET", url: "/projects/:otherPid/keys/:keyId/history", status: 404 },
  { name: "no session is 401", as: "anonymous", method: "GET", url: "/projects/:pid/keys/:keyId/history", status: 401 },
  // Paged like the key list (product §8); test/adversarial/history.test.ts fills the pages.
  { name: "a page of 0 is 400 naming it", as: "member", method: "GET", url: "/projects/:pid/keys/:keyId/history?page=0", status: 400, contains: ['invalid query parameter "page"'] },
  {
    name: "the answer says how many changes there are",
    as: "member",
    method: "GET",
    url: "/projects/:pid/keys/:keyId/history?page_size=1",
    status: 200,
    after(_ctx, body) {
      expect(body.items).toHaveLength(1);
      expect(body.page_info).toMatchObject({ page: 1, page_size: 1 });
      expect(body.page_info.total_count).toBeGreaterThan(1);
    },
  },
];

scenarios("translation history", standardWorld, rows);
coverage("history", rows);
