import { describe, expect, test } from "bun:test";
import { TrustedProxies } from "../../src/common/client-address.ts";

describe("issue 7: client addresses from a trusted proxy only", () => {
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
});
