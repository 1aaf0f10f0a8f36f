import { checkAddress, isIpLiteral, type AllowList } from "./address-guard.ts";

/**
 * Resolves a receiver's host name to every address it has. A dependency, so tests can play a
 * rebinding DNS server; the server uses the system resolver (getaddrinfo, so /etc/hosts counts).
 */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemHostResolver: HostResolver = async (hostname) => {
  // Imported on the first lookup: most starts send no webhook (docs/architecture.md "Start-up").
  const { lookup } = await import("node:dns/promises");
  const records = await lookup(hostname, { all: true, order: "verbatim" });
  return records.map((r) => r.address);
};

export type Target =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: string };

/**
 * docs/interface.md §6.1 rule 2, checked at connection time: resolve once, refuse the whole name if any of
 * its addresses is not public (a name that mixes a public and a private record would otherwise
 * let a later lookup pick the private one), and hand back the one address to connect to. The
 * caller connects to exactly that address, so a second, different DNS answer never matters.
 */
export async function vetTarget(url: URL, resolver: HostResolver, allow: AllowList): Promise<Target> {
  const host = url.hostname;
  if (isIpLiteral(host)) return checkAddress(host, allow);
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    return { ok: false, reason: `DNS lookup of ${host} failed${code ? ` (${code})` : ""}` };
  }
  if (addresses.length === 0) return { ok: false, reason: `DNS lookup of ${host} returned no address` };
  let chosen: Target | undefined;
  for (const address of addresses) {
    const verdict = checkAddress(address, allow);
    if (!verdict.ok) return { ok: false, reason: `${verdict.reason} (${host} resolves to ${addresses.join(", ")})` };
    chosen ??= verdict;
  }
  return chosen!;
}

/** The URL that reaches exactly the vetted address, keeping the receiver's port, path and query. */
export function pinnedUrl(url: URL, target: { address: string; family: 4 | 6 }): string {
  const host = target.family === 6 ? `[${target.address}]` : target.address;
  return `https://${host}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`;
}
