import { describe, expect, test } from "bun:test";
import { TrustedProxies } from "../../src/common/client-address.ts";
import { testApp } from "../helpers/app.ts";

describe("client addresses from a trusted proxy only", () => {
  const proxies = new TrustedProxies(["127.0.0.1/32", "10.0.0.0/8", "::1/128"]);

  test("without a trusted peer, X-Forwarded-For is ignored", () => {
    expect(proxies.resolve("203.0.113.9", "1.2.3.4")).toBe("203.0.113.9");
    expect(new TrustedProxies([]).resolve("127.0.0.1", "1.2.3.4")).toBe("127.0.0.1");
  });

  test("a trusted peer's header gives the right-most untrusted hop, so a forged left part is ignored", () => {
    expect(proxies.resolve("127.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    expect(proxies.resolve("127.0.0.1", "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    expect(proxies.resolve("::ffff:127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3")).toBe("198.51.100.7");
    expect(proxies.resolve("::1", "2001:db8::1")).toBe("2001:db8::1");
  });

  test("garbage in the header means the peer is the client", () => {
    expect(proxies.resolve("127.0.0.1", "not-an-ip")).toBe("127.0.0.1");
    expect(proxies.resolve("127.0.0.1", "")).toBe("127.0.0.1");
  });

  test("through the app: per-address limits count the client the trusted proxy names, and only a trusted proxy may name one", async () => {
    const t = await testApp({ env: { PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1", PHRASEBOOK_RATE_LIMIT: "2" } });
    try {
      // Failed API tokens are limited per client address (product §2).
      const guess = (peer: string, forwardedFor: string) =>
        t.fetch("/v1/releases", { headers: { authorization: `Bearer pb_${"x".repeat(43)}`, "x-forwarded-for": forwardedFor } }, peer).then((r) => r.status);
      expect([await guess("127.0.0.1", "203.0.113.1"), await guess("127.0.0.1", "203.0.113.1"), await guess("127.0.0.1", "203.0.113.1")]).toEqual([401, 401, 429]);
      // Another client behind the same proxy has its own quota; a forged left part changes nothing.
      expect(await guess("127.0.0.1", "203.0.113.2")).toBe(401);
      expect(await guess("127.0.0.1", "203.0.113.9, 203.0.113.1")).toBe(429);
      // A peer that is not a trusted proxy is the client, whatever its header says.
      expect([await guess("198.51.100.9", "203.0.113.3"), await guess("198.51.100.9", "203.0.113.4"), await guess("198.51.100.9", "203.0.113.5")]).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  test("through the app: resolved addresses are remembered per peer and header (docs/cdn.md Speed), past the memo's bound and for headers too long to remember", async () => {
    const t = await testApp({ env: { PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1", PHRASEBOOK_RATE_LIMIT: "2" } });
    try {
      const guess = (peer: string, forwardedFor: string) =>
        t.fetch("/v1/releases", { headers: { authorization: `Bearer pb_${"x".repeat(43)}`, "x-forwarded-for": forwardedFor } }, peer).then((r) => r.status);
      const client = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.1`; // 10/8 is not trusted by this app
      // 1,100 clients behind the proxy, more than the memo keeps: each is its own address.
      for (let i = 0; i < 1_100; i++) expect(await guess("127.0.0.1", client(i))).toBe(401);
      expect([await guess("127.0.0.1", client(0)), await guess("127.0.0.1", client(0))]).toEqual([401, 429]);
      expect([await guess("127.0.0.1", client(1_099)), await guess("127.0.0.1", client(1_099))]).toEqual([401, 429]);
      // The same header from a peer that is not a proxy is that peer's, never the named client's
      // (were it remembered by header alone, the third guess would be the named client's third).
      expect([await guess("127.0.0.1", client(3_000)), await guess("198.51.100.20", client(3_000)), await guess("127.0.0.1", client(3_000))]).toEqual([401, 401, 401]);
      // A header too long to remember (forged hops on the left) is still read right, every time.
      const long = `${Array.from({ length: 40 }, (_, i) => `192.0.2.${i}`).join(", ")}, ${client(2_000)}`;
      expect(long.length).toBeGreaterThan(256);
      expect([await guess("127.0.0.1", long), await guess("127.0.0.1", long), await guess("127.0.0.1", client(2_000))]).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});
