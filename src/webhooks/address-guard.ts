import ipaddr from "ipaddr.js";

/**
 * docs/interface.md §6.1 rule 2 and docs/product.md §5: the address a receiver's name resolves to
 * is checked when the sender connects, and only public unicast addresses pass. The range tables
 * are ipaddr.js's; this module only decides which of its named ranges are public and unwraps the
 * IPv6 forms that carry an IPv4 address inside them (a checker that looks only at the outer form
 * is fooled by them).
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type Verdict =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: string };

/** IPv6 global unicast (RFC 4291 2.4): anything outside, e.g. the IPv4-compatible ::/96, is refused. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/** IPv6 ranges whose low bits embed an IPv4 address that decides where the packet really goes. */
const EMBEDS_IPV4_LAST_32 = new Set(["ipv4Mapped", "rfc6145"]);
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

export interface AllowList {
  ranges: [Address, number][];
}

export function parseAllowList(cidrs: string[]): AllowList {
  return { ranges: cidrs.map((c) => ipaddr.parseCIDR(c)) };
}

function inAllowList(addr: Address, allow: AllowList): boolean {
  return allow.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

function lastIPv4(v6: ipaddr.IPv6, firstPart: number): ipaddr.IPv4 {
  const p = v6.parts;
  return new ipaddr.IPv4([p[firstPart]! >> 8, p[firstPart]! & 0xff, p[firstPart + 1]! >> 8, p[firstPart + 1]! & 0xff]);
}

/** The IPv4 address an IPv6 form carries (mapped, SIIT, NAT64, 6to4), or null for none. */
function embeddedIPv4(v6: ipaddr.IPv6): { v4: ipaddr.IPv4; form: string } | null {
  const range = v6.range();
  if (EMBEDS_IPV4_LAST_32.has(range)) return { v4: lastIPv4(v6, 6), form: range === "ipv4Mapped" ? "IPv4-mapped" : "IPv4-translated" };
  if (range === "rfc6052" && v6.match(NAT64_WELL_KNOWN)) return { v4: lastIPv4(v6, 6), form: "NAT64" };
  if (range === "6to4") return { v4: lastIPv4(v6, 1), form: "6to4" };
  return null;
}

/** Null for a public IPv4 address, else the kind of address it is ("a loopback address"). */
function ipv4Kind(v4: ipaddr.IPv4): string | null {
  const range = v4.range();
  return range === "unicast" ? null : describe(range);
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  private: "private",
  uniqueLocal: "unique-local (private)",
  reserved: "reserved",
  teredo: "Teredo tunnel",
  rfc6052: "local-use NAT64",
};

/** "a loopback address", "an unspecified address", ... */
function describe(range: string): string {
  const words = RANGE_WORDS[range] ?? `special-purpose (${range})`;
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words} address`;
}

/**
 * Decides whether the sender may connect to one resolved address. Addresses inside
 * PHRASEBOOK_WEBHOOK_ALLOW_CIDRS always pass (air-gapped receivers, tests). An IPv4-mapped
 * address is judged, and connected to, as the IPv4 address it maps.
 */
export function checkAddress(raw: string, allow: AllowList): Verdict {
  let addr: Address;
  try {
    addr = ipaddr.parse(raw.replace(/^\[|\]$/g, ""));
  } catch {
    return { ok: false, reason: `${raw} is not an IP address` };
  }
  let writtenAs = "";
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).range() === "ipv4Mapped") {
    writtenAs = ` (written as the IPv4-mapped ${addr.toString()})`;
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  const shown = addr.toString();
  const family = addr.kind() === "ipv4" ? 4 : 6;
  if (inAllowList(addr, allow)) return { ok: true, address: shown, family };

  if (addr.kind() === "ipv4") {
    const kind = ipv4Kind(addr as ipaddr.IPv4);
    return kind ? { ok: false, reason: `refused address: ${shown}${writtenAs} is ${kind}` } : { ok: true, address: shown, family };
  }
  const v6 = addr as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const kind = ipv4Kind(embedded.v4);
    if (kind) return { ok: false, reason: `refused address: ${shown} is the ${embedded.form} form of ${embedded.v4.toString()}, ${kind}` };
    return { ok: true, address: shown, family };
  }
  const range = v6.range();
  if (range !== "unicast") return { ok: false, reason: `refused address: ${shown} is ${describe(range)}` };
  if (!v6.match(IPV6_GLOBAL_UNICAST)) return { ok: false, reason: `refused address: ${shown} is outside IPv6 global unicast (2000::/3)` };
  return { ok: true, address: shown, family };
}

/** True when a URL host (as WHATWG URL canonicalises it) is an IP literal rather than a name. */
export function isIpLiteral(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || (hostname.startsWith("[") && ipaddr.IPv6.isValid(bare));
}
