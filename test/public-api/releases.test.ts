/**
 * interface §2.2, §2.5, §4.2: GET /v1/releases against the app in-process with real publishing.
 * The clock moves a second between every creation and every publish, so the created_at and
 * published_at orders are exactly the ones the tests expect.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../helpers/app.ts";
import { appFixture, draft, newToken, publish, type AppFixture } from "./api-client.ts";

const clock = new ManualClock();
let f: AppFixture;
let token: string;
let pid: string;
let secretDraft: string;

interface Made {
  id: string;
  name: string;
  tag: string;
  created: number; // creation order
}
const made: Made[] = [];

const SPECIAL: [string, string][] = [
  ["Winter sale", "v1.0.0"],
  ["apple launch", "v1.1.0"],
  ["Äpfel Ernte", "v1.2.0"],
  ["Straße", "v2.0.0-beta_1"],
  ["Zebra", "v2.0.0"],
  ["zebra", "v2.0.1"],
  ["Rocket 🚀", "v3.0.0"],
  ["U\u0308ni\u0308code decomposed", "v3.1.0"],
  ["100% done", "v4.0.0"],
];
const FILLERS = 20;

beforeAll(async () => {
  f = await appFixture({ clock });
  pid = await f.dash.project("Shop", "en", ["de", "pt-BR"]);
  await f.dash.key(pid, "greeting", { en: "Hello", de: "Hallo" });
  token = await newToken(f.dash, pid);
  const all: [string, string][] = [...SPECIAL, ...Array.from({ length: FILLERS }, (_, i): [string, string] => [`Filler ${String(i + 1).padStart(2, "0")}`, `f-${i + 1}`])];
  for (const [name, tag] of all) {
    clock.advance(1_000);
    made.push({ id: await draft(f.dash, pid, name, tag), name, tag, created: made.length });
    if (made.length === 4) secretDraft = await draft(f.dash, pid, "Secret draft", "v9.9.9");
  }
  // Publish in another order than creation, so published_at and created_at orders differ (rule 5).
  for (const m of [...made].reverse()) {
    clock.advance(1_000);
    await publish(f.dash, pid, m.id);
  }
});

afterAll(async () => {
  await f?.t.close();
  expect(f.api.checked).toBeGreaterThan(0);
});

const list = (query = "") => f.api.get(`/v1/releases${query}`, token);
const idsOf = (body: any) => body.items.map((i: any) => i.id as string);

async function everything(query: string): Promise<any[]> {
  const r = await list(`?page_size=100&${query}`);
  expect(r.status).toBe(200);
  expect(r.body.page_info.total_pages).toBe(1);
  return r.body.items;
}

describe("interface §2.2: release summary fields", () => {
  test("interface §2.2: exactly id, name, tag, status published, published_at and created_at as ISO 8601 UTC", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    for (const item of r.body.items) {
      expect(Object.keys(item).sort()).toEqual(["created_at", "id", "name", "published_at", "status", "tag"]);
      expect(item.status).toBe("published");
      expect(item.id).toMatch(/^rel_[0-9A-Za-z]{20}$/);
      for (const t of [item.created_at, item.published_at]) {
        expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(new Date(t).toISOString()).toBe(t);
      }
    }
  });
});

describe("interface §4.2 rules", () => {
  test("interface §4.2 rule 1: default order is newest first by created_at, 20 per page", async () => {
    const r = await list();
    expect(r.body.page_info).toEqual({ total_count: made.length, page: 1, page_size: 20, total_pages: 2 });
    expect(idsOf(r.body)).toEqual([...made].reverse().slice(0, 20).map((m) => m.id));
  });

  test("interface §4.2 rule 2: drafts are excluded by the query itself: full pages, and total_count counts only published", async () => {
    const p1 = await list("?page_size=10");
    const p2 = await list("?page_size=10&page=2");
    const p3 = await list("?page_size=10&page=3");
    expect([p1.body.items.length, p2.body.items.length, p3.body.items.length]).toEqual([10, 10, 9]);
    expect(p3.body.page_info).toEqual({ total_count: 29, page: 3, page_size: 10, total_pages: 3 });
    const seen = [...idsOf(p1.body), ...idsOf(p2.body), ...idsOf(p3.body)];
    expect(new Set(seen).size).toBe(29);
    expect(seen).not.toContain(secretDraft);
  });

  test("interface §4.2 rule 3: a release whose creating user was deleted is still listed", async () => {
    const email = "temp-admin@example.test";
    const u = await f.dash.post("/users", { email, name: "Temp", password: "temporary password", role: "admin" });
    expect(u.status).toBe(201);
    const other = await f.t.login(email, "temporary password");
    const rid = await draft(other, pid, "By a departed user", "departed-1");
    await publish(other, pid, rid);
    expect((await f.dash.delete(`/users/${u.body.id}`)).status).toBe(204);
    const r = await list("?search=departed");
    expect(idsOf(r.body)).toEqual([rid]);
    expect((await f.api.get(`/v1/releases/${rid}`, token)).status).toBe(200);
    // Keep the rest of the suite's counts: remove it again.
    expect((await f.dash.delete(`/projects/${pid}/releases/${rid}`)).status).toBe(204);
  });

  test("interface §4.2 rule 4: sort=status is accepted and orders by the tie-break alone (creation)", async () => {
    const asc = await everything("sort=status&order=asc");
    expect(asc.map((i) => i.id)).toEqual(made.map((m) => m.id));
    const desc = await everything("sort=status");
    expect(desc.map((i) => i.id)).toEqual([...made].reverse().map((m) => m.id));
  });

  test("interface §4.2 rule 5: published_at and created_at orders differ; sort=published_at is most recently live first", async () => {
    const byPublished = (await everything("sort=published_at")).map((i) => i.id);
    const byCreated = (await everything("sort=created_at")).map((i) => i.id);
    expect(byPublished).not.toEqual(byCreated);
    expect(byPublished).toEqual(made.map((m) => m.id)); // published in reverse creation order
    const items = await everything("sort=published_at&order=asc");
    for (let i = 1; i < items.length; i++) expect(items[i - 1].published_at <= items[i].published_at).toBe(true);
  });

  test("interface §4.2 rule 6: paging until page reaches total_pages visits every release once, in every sort and order", async () => {
    for (const sort of ["name", "tag", "status", "published_at", "created_at"]) {
      for (const order of ["asc", "desc"]) {
        const whole = (await everything(`sort=${sort}&order=${order}`)).map((i) => i.id);
        const paged: string[] = [];
        let page = 1;
        let totalPages = 0;
        do {
          const r = await list(`?sort=${sort}&order=${order}&page_size=6&page=${page}`);
          totalPages = r.body.page_info.total_pages;
          paged.push(...idsOf(r.body));
          page++;
        } while (page <= totalPages);
        expect(totalPages).toBe(Math.ceil(29 / 6));
        expect(paged).toEqual(whole);
      }
    }
  });

  test("interface §4.2 sort: name and tag sort case-insensitively, ties by created_at; desc is asc reversed", async () => {
    const caseless = (s: string) => s.normalize("NFC").toLowerCase();
    for (const field of ["name", "tag"] as const) {
      const asc = await everything(`sort=${field}&order=asc`);
      for (let i = 1; i < asc.length; i++) {
        const [a, b] = [caseless(asc[i - 1][field]), caseless(asc[i][field])];
        expect(a <= b, `${asc[i - 1][field]} before ${asc[i][field]}`).toBe(true);
      }
      const desc = await everything(`sort=${field}&order=desc`);
      expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
    }
    const names = (await everything("sort=name&order=asc")).map((i) => i.name);
    expect(names.indexOf("Zebra")).toBe(names.indexOf("zebra") - 1); // equal when folded: exact form, then creation
    expect(names[0]).toBe("100% done");
  });

  test("interface §4.2: an unrecognised sort or order falls back to the default without an error", async () => {
    const dflt = idsOf((await list()).body);
    for (const q of ["?sort=bogus", "?order=sideways", "?sort=bogus&order=bogus", "?sort=", "?sort=name&sort=tag", "?order=asc&order=desc", "?sort=%00"]) {
      const r = await list(q);
      expect(r.status).toBe(200);
      expect(idsOf(r.body)).toEqual(dflt);
    }
    expect(idsOf((await list("?sort=NAME&order=ASC")).body)).toEqual(idsOf((await list("?sort=name&order=asc")).body));
  });
});

describe("interface §4.2 search", () => {
  const search = async (s: string) => {
    const r = await list(`?page_size=100&search=${encodeURIComponent(s)}`);
    expect(r.status).toBe(200);
    return r.body.items.map((i: any) => i.name as string).sort();
  };

  test("interface §4.2 search: case-insensitive substring of the name", async () => {
    expect(await search("ZEBRA")).toEqual(["Zebra", "zebra"]);
    expect(await search("winter SALE")).toEqual(["Winter sale"]);
  });

  test("interface §4.2 search: matches the tag too, and total_count respects search", async () => {
    expect(await search("V2.0")).toEqual(["Straße", "Zebra", "zebra"]);
    const r = await list("?search=filler&page_size=5&page=2");
    expect(r.body.page_info).toEqual({ total_count: 20, page: 2, page_size: 5, total_pages: 4 });
  });

  test("interface §4.2 search: non-ASCII letters fold too (SQLite LIKE would not): Ä, ß as SS, decomposed forms", async () => {
    expect(await search("äPFEL")).toEqual(["Äpfel Ernte"]);
    expect(await search("STRASSE")).toEqual(["Straße"]);
    expect(await search("ÜNÏCODE")).toEqual(["U\u0308ni\u0308code decomposed"]);
    expect(await search("🚀")).toEqual(["Rocket 🚀"]);
  });

  test("interface §4.2 search: % and _ are literal characters, not wildcards", async () => {
    expect(await search("%")).toEqual(["100% done"]);
    expect(await search("_")).toEqual(["Straße"]);
  });

  test("interface §4.2 rule 2: search never finds a draft", async () => {
    expect(await search("secret")).toEqual([]);
    expect(await search("v9.9.9")).toEqual([]);
  });

  test("interface §4.2 rule 6: no match is total_count 0, total_pages 0 and empty items", async () => {
    const r = await list("?search=nothing-like-this");
    expect(r.body).toEqual({ items: [], page_info: { total_count: 0, page: 1, page_size: 20, total_pages: 0 } });
  });
});

describe("product §2: page and page_size values", () => {
  test("interface §4.2: page_size above 100 is clamped to 100, however large", async () => {
    for (const size of ["101", "1000", "99999999999999999999999999999"]) {
      const r = await list(`?page_size=${size}`);
      expect(r.status).toBe(200);
      expect(r.body.page_info.page_size).toBe(100);
    }
  });

  test("product §2: page past total_pages is 200 with empty items and the true page_info", async () => {
    const r = await list("?page=3");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [], page_info: { total_count: 29, page: 3, page_size: 20, total_pages: 2 } });
    const huge = await list("?page=123456789012345678901234567890");
    expect(huge.status).toBe(200);
    expect(huge.body.items).toEqual([]);
    expect(huge.text).toContain('"page":123456789012345678901234567890,');
  });

  test("product §2: a page or page_size that is not a positive whole number is a 400 naming it", async () => {
    for (const name of ["page", "page_size"]) {
      for (const bad of ["0", "-1", "abc", "1.5", "1e3", "0x10", "%205", "+1", "%E2%85%A0", "1%00"]) {
        const r = await list(`?${name}=${bad}`);
        expect(r.status, `${name}=${bad}`).toBe(400);
        expect(Object.keys(r.body)).toEqual(["error"]);
        expect(r.body.error).toContain(`"${name}"`);
      }
    }
  });

  test("product §2: a repeated page, page_size or search is a 400 naming it; a missing or empty one takes the default", async () => {
    for (const [q, name] of [["page=1&page=2", "page"], ["page_size=5&page_size=5", "page_size"], ["search=a&search=b", "search"]]) {
      const r = await list(`?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(`"${name}"`);
    }
    const r = await list("?page=&page_size=");
    expect(r.body.page_info).toMatchObject({ page: 1, page_size: 20 });
    expect((await list("?page=002")).body.page_info.page).toBe(2);
  });

  test("odd search values never cause a 5xx", async () => {
    for (const s of ["%ZZ", "%C3%28", "%00", "%FF%FE", "x".repeat(4000), "%F0%9F%98%80", "'%20OR%201=1--", "%E2%80%AE", "%5C"]) {
      const r = await list(`?search=${s}`);
      expect(r.status, s).toBe(200);
    }
    const r = await list("?unknown=1&page=1");
    expect(r.status).toBe(200);
  });

  test("300 random query strings: every answer is a 200 or a 400 naming a parameter, never a 5xx", async () => {
    const pieces = ["page", "page_size", "search", "sort", "order", "x", "", "=", "&", "%", "%2", "%ZZ", "%00", "+", "-1", "0", "1", "07", "1e3",
      "99999999999999999999", "name", "DESC", "asc", "ß", "😀", "%C3%9F", "%F0%9F%98%80", "[]", "page[]", "\\", ";", "#"];
    let seed = 4;
    const pick = () => pieces[(seed = (seed * 48271) % 2147483647) % pieces.length]!;
    for (let i = 0; i < 300; i++) {
      const raw = Array.from({ length: 1 + (i % 7) }, pick).join("");
      const r = await list(`?${encodeURI(raw).replace(/#/g, "%23")}`); // checked against the document too
      expect([200, 400], raw).toContain(r.status);
      if (r.status === 400) expect(r.body.error).toMatch(/"(page|page_size|search)"/);
    }
  });
});
