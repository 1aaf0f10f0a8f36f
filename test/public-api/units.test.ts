/** The public API's pure modules: query normalising, text rules, the limiter, the cache, the index. */
import { describe, expect, test } from "bun:test";
import { HttpError } from "../../src/common/errors.ts";
import { parseListQuery, readParams, type ListQuery } from "../../src/public-api/query.ts";
import { FixedWindowLimiter } from "../../src/public-api/rate-limit.ts";
import type { PublishedRow } from "../../src/public-api/queries.ts";
import { ReleaseIndex, renderReleaseList } from "../../src/public-api/release-index.ts";
import { CACHE_MAX_ENTRIES, ResponseCache } from "../../src/public-api/response-cache.ts";
import { compareCodePoints } from "../../src/common/text.ts";
import { fold } from "../../src/public-api/text.ts";
import { SearchIndex } from "../../src/public-api/search-index.ts";
import { bearerToken } from "../../src/tokens/token-auth.ts";
import { EndpointRouter } from "../../src/public-api/endpoint-router.ts";
import { ENDPOINTS } from "../../src/public-api/endpoints.ts";
import { RELEASES_QUERY, SORT_KEYS } from "../../src/public-api/model.ts";

function rejects(raw: string): string {
  try {
    parseListQuery(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).message;
  }
  throw new Error(`${raw} was accepted`);
}

describe("product §2: page and page_size", () => {
  test("defaults are page 1 and page_size 20, sort created_at, order desc (interface §4.2)", () => {
    expect(parseListQuery("")).toEqual({ page: 1, pageDigits: "1", pageSize: 20, search: "", sort: "created_at", order: "desc" });
  });

  test("a value that is not a positive whole number is a 400 naming the parameter", () => {
    for (const bad of ["0", "-1", "abc", "1.5", "1e3", "0x10", " 5", "+1", "00", "٣"]) {
      expect(rejects(`?page=${encodeURIComponent(bad)}`)).toContain('"page"');
      expect(rejects(`?page_size=${encodeURIComponent(bad)}`)).toContain('"page_size"');
    }
  });

  test("an empty value takes the default; leading zeros are the same number", () => {
    expect(parseListQuery("?page=&page_size=").page).toBe(1);
    expect(parseListQuery("?page=007").pageDigits).toBe("7");
  });

  test("interface §4.2: page_size above 100 is clamped, however large", () => {
    expect(parseListQuery("?page_size=101").pageSize).toBe(100);
    expect(parseListQuery("?page_size=99999999999999999999999999").pageSize).toBe(100);
    expect(parseListQuery("?page_size=100").pageSize).toBe(100);
  });

  test("a huge page is kept digit for digit, so page_info echoes the true page", () => {
    const q = parseListQuery("?page=123456789012345678901234567890");
    expect(q.pageDigits).toBe("123456789012345678901234567890");
    expect(q.page).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
  });

  test("a repeated page, page_size or search is a 400 naming it", () => {
    expect(rejects("?page=1&page=2")).toContain('"page"');
    expect(rejects("?page_size=1&page_size=1")).toContain('"page_size"');
    expect(rejects("?search=a&search=b")).toContain('"search"');
  });
});

describe("interface §4.2 and §7 rule 3: sort and order fall back silently", () => {
  test("every listed sort and order is taken, in any letter case", () => {
    for (const s of ["name", "tag", "status", "published_at", "created_at"] as const) expect(parseListQuery(`?sort=${s.toUpperCase()}`).sort).toBe(s);
    expect(parseListQuery("?order=ASC").order).toBe("asc");
  });

  test("an unknown or repeated value falls back to the default", () => {
    expect(parseListQuery("?sort=size&order=sideways")).toMatchObject({ sort: "created_at", order: "desc" });
    expect(parseListQuery("?sort=name&sort=tag&order=asc&order=asc")).toMatchObject({ sort: "created_at", order: "desc" });
    expect(parseListQuery("?sort=&order=")).toMatchObject({ sort: "created_at", order: "desc" });
  });
});

describe("interface §4.2: case-insensitive search beyond ASCII", () => {
  test("fold maps the cases SQLite's LIKE would miss", () => {
    expect(fold("ÄPFEL")).toBe(fold("äpfel"));
    expect(fold("STRASSE")).toBe(fold("straße"));
    expect(fold("ΟΔΟΣ")).toBe(fold("οδος"));
    expect(fold("ΟΔΟΣ").includes(fold("σ"))).toBe(true); // final sigma folds like any sigma
    expect(fold("U\u0308ber")).toBe(fold("über")); // decomposed and composed
    expect(fold("ﬁle")).toBe(fold("FILE"));
  });

  test("accents stay significant", () => {
    expect(fold("café").includes(fold("cafe"))).toBe(false);
  });

  test("code-point order puts astral characters after the last BMP ones", () => {
    expect(compareCodePoints("\uff5e", "😀")).toBeLessThan(0);
    expect(compareCodePoints("a", "b")).toBeLessThan(0);
    expect(compareCodePoints("ab", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("x", "x")).toBe(0);
  });
});

describe("interface §8: the fixed window", () => {
  test("windows align to multiples of their length and Retry-After is the whole seconds left, at least 1", () => {
    const limiter = new FixedWindowLimiter<string>(2, 60_000);
    const t0 = 1_700_000_080_000; // 40 s into the window [1_700_000_040_000, 1_700_000_100_000)
    expect(limiter.take("a", t0)).toMatchObject({ allowed: true, remaining: 1, resetEpochSeconds: 1_700_000_100 });
    expect(limiter.take("a", t0 + 1)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = limiter.take("a", t0 + 500);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 20 });
    expect(limiter.take("a", t0 + 19_999).retryAfterSeconds).toBe(1);
    expect(limiter.take("b", t0).allowed).toBe(true); // per key
    expect(limiter.take("a", 1_700_000_100_000)).toMatchObject({ allowed: true, remaining: 1 }); // the next window
  });

  test("peek spends nothing", () => {
    const limiter = new FixedWindowLimiter<number>(5, 1000);
    limiter.take(1, 10);
    expect(limiter.peek(1, 11).remaining).toBe(4);
    expect(limiter.peek(1, 12).remaining).toBe(4);
  });
});

describe("interface §4.2 rule 7: the response cache", () => {
  test("entries are per project and literal key, expire after the TTL, and go with their project", async () => {
    const cache = new ResponseCache(60_000);
    cache.set(1, "/v1/releases?a=1&b=2", 200, "one", 0);
    cache.set(2, "/v1/releases?a=1&b=2", 200, "two", 0);
    expect(await cache.get(1, "/v1/releases?a=1&b=2", 1)?.body.text()).toBe("one");
    expect(cache.get(1, "/v1/releases?b=2&a=1", 1)).toBeUndefined();
    expect(cache.get(1, "/v1/releases?a=1&b=2", 60_000)).toBeUndefined();
    cache.dropProject(2);
    expect(cache.get(2, "/v1/releases?a=1&b=2", 1)).toBeUndefined();
  });

  test("a TTL of 0 turns it off, and it never holds more than its bound", () => {
    const off = new ResponseCache(0);
    off.set(1, "/x", 200, "x", 0);
    expect(off.get(1, "/x", 0)).toBeUndefined();
    const cache = new ResponseCache(60_000);
    for (let i = 0; i <= CACHE_MAX_ENTRIES; i++) cache.set(1, `/v1/releases?n=${i}`, 200, "x", 0);
    expect(cache.size).toBe(CACHE_MAX_ENTRIES);
    expect(cache.get(1, "/v1/releases?n=0", 1)).toBeUndefined(); // the oldest went first
  });
});

function rows(n: number): PublishedRow[] {
  return Array.from({ length: n }, (_, i) => ({
    rowId: i + 1,
    publicId: `rel_${i}`,
    name: `Release ${n - i}`,
    tag: `t${i % 3}`,
    slug: "s",
    createdAt: 1000 + Math.floor(i / 2), // pairs share created_at: the row id breaks the tie
    publishedAt: 5000 - i,
  }));
}

const q = (over: Partial<ListQuery> = {}): ListQuery => ({ page: 1, pageDigits: "1", pageSize: 20, search: "", sort: "created_at", order: "desc", ...over });
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
// A page's items are summaries, or runs of comma-separated summaries (docs/public-api.md "Speed").
const ids = (items: Uint8Array[]) => (JSON.parse(`[${items.map(text).join(",")}]`) as { id: string }[]).map((s) => s.id);

describe("interface §4.2: the in-memory index", () => {
  const index = new ReleaseIndex(rows(45));

  test("pages are slices of one total order; desc is asc reversed", () => {
    for (const sort of ["name", "tag", "status", "published_at", "created_at"] as const) {
      const asc = ids(index.page(q({ sort, order: "asc", pageSize: 100 })).items);
      const desc = ids(index.page(q({ sort, order: "desc", pageSize: 100 })).items);
      expect(desc).toEqual([...asc].reverse());
      const paged: string[] = [];
      for (let page = 1; page <= 7; page++) paged.push(...ids(index.page(q({ sort, order: "asc", page, pageDigits: String(page), pageSize: 7 })).items));
      expect(paged).toEqual(asc);
    }
  });

  test("ties break by created_at, then creation order", () => {
    const byTag = ids(index.page(q({ sort: "tag", order: "asc", pageSize: 100 })).items);
    expect(byTag.slice(0, 3)).toEqual(["rel_0", "rel_3", "rel_6"]);
    expect(ids(index.page(q({ order: "asc", pageSize: 3 })).items)).toEqual(["rel_0", "rel_1", "rel_2"]);
  });

  test("search counts every match and pages through them; a past-the-end page is empty", () => {
    const found = index.page(q({ search: "RELEASE 1", pageSize: 5 }));
    expect(found.total).toBe(1 + 10); // "Release 1" and "Release 10".."Release 19"
    expect(index.page(q({ search: "release 1", page: 4, pageDigits: "4", pageSize: 5 })).items).toEqual([]);
    expect(index.page(q({ search: "t2" })).total).toBe(15);
    expect(index.page(q({ search: "nothing" })).total).toBe(0);
  });

  test("the list body carries the page_info of interface §2.5", () => {
    const query = q({ page: 3, pageDigits: "3", pageSize: 20 });
    const { items, total } = index.page(query);
    expect(JSON.parse(text(renderReleaseList(items, total, query))).page_info).toEqual({ total_count: 45, page: 3, page_size: 20, total_pages: 3 });
    const empty = new ReleaseIndex([]);
    const none = empty.page(q());
    expect(JSON.parse(text(renderReleaseList(none.items, none.total, q())))).toEqual({ items: [], page_info: { total_count: 0, page: 1, page_size: 20, total_pages: 0 } });
  });
});

describe("interface §5 rule 1: the bearer header", () => {
  test("only `Bearer <pb_ token>` yields a token; the scheme in any case, surrounding spaces ignored", () => {
    const token = "pb_" + "A1b2".repeat(10) + "xyz";
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`bEaReR   ${token}  `)).toBe(token);
    expect(bearerToken(`Bearer ${token}  `)).toBe(token);
    for (const bad of [token, `Basic ${token}`, "Bearer", "Bearer ", `Bearer ${token}!`, `Bearer ${token} x`, `Bearer pb_short`, `Bearer ${token.slice(3)}`]) {
      expect(bearerToken(bad)).toBeNull();
    }
  });
});

describe("interface §4.2 search: the n-gram index", () => {
  test("finds exactly what a plain scan finds, for needles of every length", () => {
    const alphabet = ["a", "b", "A", "ß", "é", "1", ".", " ", "😀", "-"];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (len: number) => Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join("");
    const names = Array.from({ length: 300 }, () => fold(word(1 + rand(12))));
    const tags = Array.from({ length: 300 }, () => fold(word(1 + rand(6))));
    const index = new SearchIndex(names, tags);
    for (let k = 0; k < 400; k++) {
      const needle = fold(word(1 + rand(6)));
      const expected = names.flatMap((n, i) => (n.includes(needle) || tags[i]!.includes(needle) ? [i] : []));
      expect([...index.find(needle)], needle).toEqual(expected);
    }
    // A needle that would only match across the name/tag boundary matches nothing.
    const two = new SearchIndex(["abc"], ["def"]);
    expect([...two.find("cd")]).toEqual([]);
    expect([...two.find("c\u0000d")]).toEqual([]);
    expect([...two.find("abc")]).toEqual([0]);
  });
});

describe("product §2: reading the literal query string", () => {
  test("readParams decodes exactly like URLSearchParams, keeping every repeat", () => {
    const cases = ["", "?", "?a=1&a=2&b", "?search=%C3%9F+x&x=%ZZ&y=%C3%28&z=%E2%82", "?=v&&k==v", "?a%20b=c%2Bd", "?s=%F0%9F%98%80+%2B", "?p=1&p", "?%"];
    for (const raw of cases) {
      const expected = new Map<string, string[]>();
      for (const [k, v] of new URLSearchParams(raw)) expected.set(k, [...(expected.get(k) ?? []), v]);
      expect(readParams(raw), raw).toEqual(expected);
    }
  });
});

describe("interface §4: which endpoint a literal path names", () => {
  /** The pattern and parameters of the row a path (without its query) names, as the fast path reads it. */
  const router = new EndpointRouter(ENDPOINTS);
  const endpointOf = (path: string) => {
    const found = router.match(path);
    return found === null ? undefined : { path: found.store.path, params: found.params };
  };

  test("the four endpoints; a release id decoded like a path segment", () => {
    expect(endpointOf("/v1/releases")).toEqual({ path: "/v1/releases", params: {} });
    expect(endpointOf("/v1/projects")).toEqual({ path: "/v1/projects", params: {} });
    expect(endpointOf("/v1/project-languages")).toEqual({ path: "/v1/project-languages", params: {} });
    expect(endpointOf("/v1/releases/rel_1")).toEqual({ path: "/v1/releases/:release_id", params: { release_id: "rel_1" } });
    expect(endpointOf("/v1/releases/a%20b")).toEqual({ path: "/v1/releases/:release_id", params: { release_id: "a b" } });
    expect(endpointOf("/v1/releases/%ZZ")).toEqual({ path: "/v1/releases/:release_id", params: { release_id: null } });
    for (const other of ["/v1/releases/", "/v1/releases/a/b", "/v1/release", "/v1/projects/", "/v1/openapi.json", "/v1/docs", "/v1/", "/v1/Projects"]) {
      expect(endpointOf(other), other).toBeUndefined();
    }
  });

  test("every documented query parameter of GET /releases is the one query.ts reads", () => {
    for (const name of Object.keys(RELEASES_QUERY)) {
      const twice = `?${name}=1&${name}=1`;
      if (name === "sort" || name === "order") expect(() => parseListQuery(twice)).not.toThrow();
      else expect(rejects(twice)).toContain(`"${name}"`);
    }
    expect(RELEASES_QUERY.sort.schema.enum).toEqual([...SORT_KEYS]);
  });
});
