/**
 * docs/product.md §3, docs/publishing.md §2: a publish ships every language as it was at one
 * moment, although it reads the snapshot one language at a time (bounded memory: docs/publishing.md
 * §7). Edits made while its files are being written (the release is claimed, so the snapshot was
 * taken) are in none of them.
 */
import { describe, expect, test } from "bun:test";
import { testApp } from "../helpers/app.ts";
import { importJson, lang, url } from "../helpers/releases.ts";

const CODES = ["en", "de", "fr", "ja"];
const KEYS = 1500;

describe("the publish snapshot (product §3)", () => {
  test("values changed, keys added and a language's values deleted while the files are written are not in the release", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Snapshot", "en", CODES.slice(1));
      for (const code of CODES) await importJson(admin, pid, code, Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`k${String(i).padStart(4, "0")}`, `${code} before ${i}`])));
      const hit = await (async () => {
        for (let attempt = 1; attempt <= 5; attempt++) {
          const draft = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: `v${attempt}` });
          let done = false;
          const publishing = admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`).finally(() => (done = true));
          // Claimed: the snapshot was taken before the claim, and the files are being written now.
          while (!done && !t.query<{ p: number | null }>("SELECT publishing_since AS p FROM releases WHERE public_id = ?", draft.body.id)[0]!.p) await new Promise((r) => setImmediate(r));
          if (done) continue;
          const key = (await admin.get(`/projects/${pid}/keys?search=k1499&languages=ja`)).body.items[0];
          expect((await admin.put(`/projects/${pid}/keys/${key.id}/translations/ja`, { value: "ja after" })).status).toBe(200);
          await importJson(admin, pid, "fr", { "k9999.new": "fr after" });
          t.query("DELETE FROM translations WHERE language_id = (SELECT id FROM languages WHERE code = 'de' AND project_id = (SELECT id FROM projects WHERE public_id = ?))", pid);
          return (await publishing).body;
        }
        throw new Error("every publish ended before the test could edit during one");
      })();
      for (const code of CODES) {
        const file = await (await t.fetch(url(lang(hit, code)))).json();
        expect(Object.keys(file).length).toBe(KEYS);
        expect(file.k1499).toBe(`${code} before 1499`);
      }
    } finally {
      await t.close();
    }
  });
});
