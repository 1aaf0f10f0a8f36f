import { afterAll, beforeAll, expect, test } from "bun:test";
import { cdnFixture, latestUrl, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";
let f: CdnFixture; let pid: string; let slug: string;
beforeAll(async () => {
  f = await cdnFixture();
  pid = (await f.admin.post("/projects", { name: "P", base_language_code: "en", message_syntax: "flutter" })).body.id;
  await f.admin.post(`/projects/${pid}/languages`, { code: "de" });
  slug = await projectSlug(f.admin, pid);
});
afterAll(() => f.t.close());
const push = (language_code: string, content: object) => f.admin.post(`/projects/${pid}/import`, { language_code, format: "arb", content: JSON.stringify(content) });
test("probe", async () => {
  const en = { "@@locale": "en",
    inlineDate: "Due {when, date, ::yMMMd}", "@inlineDate": { placeholders: { when: { type: "DateTime" } } },
    inlineTime: "At {t, time, ::jm}",
    inlineUntyped: "On {d, date, ::yMd}",
    boolCustom: "Exported {date}", "@boolCustom": { placeholders: { date: { type: "DateTime", format: "dd.MM.yyyy", isCustomDateFormat: "true" } } },
    numSelect: "{n, select, 1{one} other{many}}",
    pluralAll: "{count, plural, =0{none} =1{one} =2{two} zero{z} one{o} two{t} few{f} many{m} other{{count}}}",
    escaped: "It''s {name}",
  };
  const r = await push("en", en); console.log(r.status, JSON.stringify(r.body));
  const de = { "@@locale": "de", inlineDate: "Fällig {when, date, ::yMMMd}", inlineTime: "Um {t, time, ::jm}", inlineUntyped: "Am {d, date, ::yMd}", boolCustom: "Exportiert {date}", numSelect: "{n, select, 1{eins} other{viele}}", pluralAll: "{count, plural, one{o} other{{count}}}", escaped: "Es ist {name}" };
  const r2 = await push("de", de); console.log(r2.status, JSON.stringify(r2.body));
  console.log(JSON.stringify((await f.admin.get(`/projects/${pid}/problems`)).body));
  await publish(f.admin, pid, "v1");
  console.log(await (await f.t.fetch(latestUrl(slug, "en", "arb"))).text());
});
