import ipaddr from "ipaddr.js";

/**
 * The client address of a request: the TCP peer, or, when the peer is a trusted reverse proxy
 * (PHRASEBOOK_TRUSTED_PROXIES), the right-most X-Forwarded-For entry that is not itself a trusted
 * proxy. Taking the right-most untrusted entry matters: everything left of it was written by the
 * client and can be forged.
 */
type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export class TrustedProxies {
  private ranges: Range[];

  constructor(cidrs: string[]) {
    this.ranges = cidrs.map((c) => ipaddr.parseCIDR(c));
  }

  get enabled(): boolean {
    return this.ranges.length > 0;
  }

  trusts(address: string): boolean {
    const parsed = parseAddress(address);
    if (!parsed) return false;
    return this.ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  }

  /** The client address for a peer and its X-Forwarded-For header. */
  resolve(peer: string, forwardedFor: string | null): string {
    if (!forwardedFor || !this.trusts(peer)) return normalise(peer);
    const hops = forwardedFor.split(",").map((h) => h.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (!parseAddress(hop)) return normalise(peer); // garbage: believe nothing
      if (!this.trusts(hop)) return normalise(hop);
    }
    return normalise(hops[0] ?? peer);
  }
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const parsed = ipaddr.parse(address);
    // An IPv4 peer on a dual-stack socket shows up as ::ffff:a.b.c.d.
    return parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  } catch {
    return null;
  }
}

function normalise(address: string): string {
  return parseAddress(address)?.toString() ?? address;
}

/**
 * The address each request in flight came from, noted by the app's entry point and read by the
 * routes that limit per address (logins, invalid tokens). Owned by one app, so two apps in one
 * process (tests) never see each other's requests.
 */
export class ClientAddresses {
  private readonly byRequest = new WeakMap<Request, string>();

  note(request: Request, address: string): void {
    this.byRequest.set(request, address);
  }

  of(request: Request): string {
    return this.byRequest.get(request) ?? "unknown";
  }
}
