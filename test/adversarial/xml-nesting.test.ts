/**
 * The XML formats refuse deep nesting before a parser sees the file (docs/formats.md "XML"), by
 * counting tags in one pass. That pass counted the closing tags inside comments and CDATA too, so
 * 100,000 `</a>` in a comment let 100,000 nested `<group>`s through: the XLIFF reader then
 * recursed through them and the import was a 500, from any member or `write` token. Comments,
 * CDATA sections and processing instructions are now skipped by the count; the file is a 400
 * naming the nesting. Also: an error that knows its line but not its column said "column
 * undefined".
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { IMPORT_LIMITS } from "../../src/formats/read.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Xml", "en");
});
afterAll(() => t.close());

const N = 100_000;
const HIDERS = {
  comment: "<!-- " + "</a>".repeat(N) + " -->",
  cdata: "<![CDATA[" + "</a>".repeat(N) + "]]>",
  "processing instruction": "<?x " + "</a>".repeat(N) + " ?>",
};
const xliff = (hider: string) =>
  `<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body><note>${hider}</note>${"<group>".repeat(N)}<trans-unit id="k"><source>v</source></trans-unit>${"</group>".repeat(N)}</body></file></xliff>`;
const android = (hider: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>${hider}${"<b>".repeat(N)}${"</b>".repeat(N)}<string name="x">y</string></resources>`;

for (const [name, hider] of Object.entries(HIDERS)) {
  test(`closing tags hidden in a ${name}, then ${N.toLocaleString("en-US")} nested elements: a 400 naming the nesting, in parallel, never a 500`, async () => {
    const replies = await Promise.all([
      admin.post(`/projects/${pid}/import`, { language_code: "en", format: "xliff", content: xliff(hider) }),
      admin.post(`/projects/${pid}/import`, { language_code: "en", format: "android", content: android(hider) }),
    ]);
    for (const r of replies) {
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(new RegExp(`^invalid field "content": line \\d+, column \\d+: elements are nested deeper than ${IMPORT_LIMITS.depth} levels$`));
    }
  }, 120_000);
}

test("an error with a line and no column says the line only", async () => {
  const content = `<?xml version="1.0" encoding="utf-8"?>\n<resources><plurals name="p"><item quantity="other">a</item><item quantity="other">b</item></plurals></resources>`;
  const r = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "android", content });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('invalid field "content": line 2: <plurals name="p"> has quantity="other" twice');
});
