import ipaddr from "ipaddr.js";
import type { Clock } from "../common/clock.ts";
import { HttpError } from "../common/errors.ts";

/**
 * Failed-login limiting (docs/dashboard-api.md "Authentication", docs/deploy.md "Security notes"):
 * per address and email, and per address overall (credential stuffing), in a sliding window.
 */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/**
 * At most this many counters are kept (each an address, or an address and an email: a few hundred
 * bytes, so about 10 MB at most). Past it, the counters that failed longest ago are forgotten
 * first: only an attacker with more addresses than this in 15 minutes gets there, and per-address
 * counting cannot stop one anyway.
 */
export const LOGIN_THROTTLE_MAX_KEYS = 20_000;
/** Expired counters are swept at most this often (and whenever the map is full). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The address a counter is kept for. An IPv6 client usually holds a whole /64 (its provider hands
 * out the prefix, the host picks the rest at will), so IPv6 addresses count by their /64; IPv4
 * addresses, and IPv4 peers seen through a dual-stack socket, count alone.
 */
export function addressGroup(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return address; // "unknown" (no peer), or something no client can choose
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

export class LoginThrottle {
  /** Failure times per counter, oldest first; Map order is the order counters last failed in. */
  private failures = new Map<string, number[]>();
  private nextSweepAt = 0;

  constructor(private clock: Clock) {}

  /** How many counters are held (docs/deploy.md: bounded). */
  get size(): number {
    return this.failures.size;
  }

  private keys(address: string, email: string): [account: string, address: string] {
    const group = addressGroup(address);
    return [`${group}|${email}`, group];
  }

  private recent(key: string, since: number): number[] {
    const list = this.failures.get(key);
    if (!list) return [];
    const fresh = list[0]! > since ? list : list.filter((t) => t > since);
    if (fresh.length === 0) this.failures.delete(key);
    else if (fresh !== list) this.failures.set(key, fresh);
    return fresh;
  }

  /** Drops expired counters; when still full, forgets those that failed longest ago. */
  private sweep(now: number): void {
    if (now < this.nextSweepAt && this.failures.size < LOGIN_THROTTLE_MAX_KEYS) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    const since = now - LOGIN_WINDOW_MS;
    for (const key of this.failures.keys()) this.recent(key, since);
    const target = Math.floor(LOGIN_THROTTLE_MAX_KEYS * 0.9);
    for (const key of this.failures.keys()) {
      if (this.failures.size <= target) break;
      this.failures.delete(key);
    }
  }

  private refuse(blocked: number[], now: number): never {
    const retryAfter = Math.max(1, Math.ceil((blocked[0]! + LOGIN_WINDOW_MS - now) / 1000));
    throw new HttpError(429, `too many failed logins; try again in ${retryAfter} seconds`, { "retry-after": String(retryAfter) });
  }

  /**
   * Checks both limits and counts the attempt as failed, in one synchronous step before the (slow)
   * password check: of N attempts sent at once, only as many as the limits allow get past, however
   * many emails they spread over. Returns the time it was counted at, for `succeed` and `forget`.
   */
  attempt(address: string, email: string): number {
    const now = this.clock.now();
    this.sweep(now);
    const since = now - LOGIN_WINDOW_MS;
    const [accountKey, addressKey] = this.keys(address, email);
    const perAccount = this.recent(accountKey, since);
    if (perAccount.length >= LOGIN_FAILURES_PER_ACCOUNT) this.refuse(perAccount, now);
    const perAddress = this.recent(addressKey, since);
    if (perAddress.length >= LOGIN_FAILURES_PER_ADDRESS) this.refuse(perAddress, now);
    for (const [key, list] of [
      [accountKey, perAccount],
      [addressKey, perAddress],
    ] as const) {
      this.failures.delete(key); // re-inserted last: the Map stays in order of the latest failure
      this.failures.set(key, [...list, now]);
    }
    return now;
  }

  /** A success clears the account's failures and takes back the address's count of this attempt. */
  succeed(address: string, email: string, attemptedAt: number): void {
    const [accountKey, addressKey] = this.keys(address, email);
    this.failures.delete(accountKey);
    this.takeBack(addressKey, attemptedAt);
  }

  /** An attempt that was never checked (the server was too busy) does not count at all. */
  forget(address: string, email: string, attemptedAt: number): void {
    for (const key of this.keys(address, email)) this.takeBack(key, attemptedAt);
  }

  private takeBack(key: string, at: number): void {
    const list = this.failures.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (index < 0) return;
    list!.splice(index, 1);
    if (list!.length === 0) this.failures.delete(key);
  }
}
