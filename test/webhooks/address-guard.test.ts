/** Interface §6.1 rule 2 and product §5 as a table: which resolved addresses the sender may connect to. */
import { describe, expect, test } from "bun:test";
import { checkAddress, isIpLiteral, parseAllowList } from "../../src/webhooks/address-guard.ts";
import { vetTarget, type HostResolver } from "../../src/webhooks/target.ts";

const none = parseAllowList([]);

const REFUSED: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["0.0.0.0", "unspecified"],
  ["::", "unspecified"],
  ["169.254.169.254", "link-local"],
  ["fe80::1", "link-local"],
  ["10.0.0.5", "private"],
  ["172.16.0.1", "private"],
  ["192.168.1.1", "private"],
  ["fc00::1", "unique-local"],
  ["fd12:3456::1", "unique-local"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["224.0.0.1", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.10", "reserved"],
  ["2001:db8::1", "reserved"],
  // Embedded forms that fooled other checkers: judged by the IPv4 address inside them.
  ["::ffff:127.0.0.1", "IPv4-mapped ::ffff:7f00:1) is a loopback"],
  ["::ffff:7f00:1", "IPv4-mapped ::ffff:7f00:1) is a loopback"],
  ["::ffff:a00:1", "is a private"],
  ["::ffff:0:7f00:1", "IPv4-translated form of 127.0.0.1, a loopback"],
  ["64:ff9b::7f00:1", "NAT64 form of 127.0.0.1, a loopback"],
  ["64:ff9b::a9fe:a9fe", "NAT64 form of 169.254.169.254, a link-local"],
  ["2002:7f00:1::1", "6to4 form of 127.0.0.1, a loopback"],
  ["2002:c0a8:101::1", "6to4 form of 192.168.1.1, a private"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["64:ff9b:1::a00:1", "local-use NAT64"],
  ["::7f00:1", "outside IPv6 global unicast"],
];

const ALLOWED = ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "64:ff9b::808:808", "2002:808:808::1"];

describe("interface §6.1 rule 2: the address check", () => {
  for (const [address, why] of REFUSED) {
    test(`interface §6.1 rule 2: ${address} is refused (${why})`, () => {
      const v = checkAddress(address, none);
      expect(v.ok).toBe(false);
      if (!v.ok) {
        expect(v.reason).toStartWith("refused address: ");
        expect(v.reason).toContain(why);
      }
    });
  }
  for (const address of ALLOWED) {
    test(`interface §6.1 rule 2: public ${address} is allowed`, () => {
      expect(checkAddress(address, none)).toMatchObject({ ok: true });
    });
  }

  test("interface §6.1 rule 2: an IPv4-mapped public address is connected to as the IPv4 address", () => {
    expect(checkAddress("::ffff:8.8.8.8", none)).toEqual({ ok: true, address: "8.8.8.8", family: 4 });
  });

  test("product §5: PHRASEBOOK_WEBHOOK_ALLOW_CIDRS exempts exactly its ranges, also in their IPv4-mapped form", () => {
    const allow = parseAllowList(["127.0.0.1/32", "10.20.0.0/16", "fd00:1::/32"]);
    expect(checkAddress("127.0.0.1", allow)).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
    expect(checkAddress("::ffff:127.0.0.1", allow)).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
    expect(checkAddress("10.20.3.4", allow)).toMatchObject({ ok: true });
    expect(checkAddress("fd00:1::5", allow)).toMatchObject({ ok: true });
    expect(checkAddress("127.0.0.2", allow).ok).toBe(false);
    expect(checkAddress("10.21.0.1", allow).ok).toBe(false);
    expect(checkAddress("::1", allow).ok).toBe(false);
  });

  test("interface §6.1 rule 2: something that is not an address is refused", () => {
    expect(checkAddress("example.com", none).ok).toBe(false);
  });
});

describe("interface §6.1 rule 2: host forms as the URL parser hands them over", () => {
  // WHATWG URL turns every IPv4 spelling into dotted decimal before the check sees it.
  for (const host of ["127.1", "2130706433", "0x7f.1", "0177.0.0.1", "0x7f000001"]) {
    test(`interface §6.1 rule 2: https://${host}/ is the literal 127.0.0.1 and is refused without DNS`, async () => {
      const url = new URL(`https://${host}/hook`);
      expect(url.hostname).toBe("127.0.0.1");
      expect(isIpLiteral(url.hostname)).toBe(true);
      const resolver: HostResolver = async () => {
        throw new Error("an IP literal must not be looked up");
      };
      const t = await vetTarget(url, resolver, none);
      expect(t).toEqual({ ok: false, reason: "refused address: 127.0.0.1 is a loopback address" });
    });
  }

  test("interface §6.1 rule 2: bracketed IPv6 literals are checked as addresses", async () => {
    const never: HostResolver = async () => [];
    expect((await vetTarget(new URL("https://[::1]/"), never, none)).ok).toBe(false);
    expect((await vetTarget(new URL("https://[::ffff:7f00:1]/"), never, none)).ok).toBe(false);
    expect(await vetTarget(new URL("https://[2606:4700::1111]/"), never, none)).toEqual({ ok: true, address: "2606:4700::1111", family: 6 });
  });

  test("interface §6.1 rule 2: a name whose records mix a public and a private address is refused as a whole", async () => {
    const mixed: HostResolver = async () => ["93.184.216.34", "10.0.0.5"];
    const t = await vetTarget(new URL("https://mixed.example/"), mixed, none);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toBe("refused address: 10.0.0.5 is a private address (mixed.example resolves to 93.184.216.34, 10.0.0.5)");
  });

  test("interface §6.1 rule 2: a name that resolves to a private address is refused; a public one gives its first address", async () => {
    expect((await vetTarget(new URL("https://internal.example/"), async () => ["192.168.0.10"], none)).ok).toBe(false);
    expect(await vetTarget(new URL("https://public.example/"), async () => ["93.184.216.34", "2606:2800:220:1::1"], none)).toEqual({ ok: true, address: "93.184.216.34", family: 4 });
  });

  test("interface §6.4 rule 2: a DNS failure and an empty answer are failures with a reason", async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    };
    expect(await vetTarget(new URL("https://gone.example/"), failing, none)).toEqual({ ok: false, reason: "DNS lookup of gone.example failed (ENOTFOUND)" });
    expect(await vetTarget(new URL("https://empty.example/"), async () => [], none)).toEqual({ ok: false, reason: "DNS lookup of empty.example returned no address" });
  });
});
