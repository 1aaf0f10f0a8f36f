import { OIDC_NEXT_MAX_LENGTH } from "../limits.ts";

/**
 * Where a sign-in through a provider may return to (docs/dashboard-api.md "Single sign-on"): a
 * path on this server's public origin, else the dashboard. A `next` of another origin, or one a
 * browser reads as another (`//evil`, `/\evil`, and `/.//evil`, whose resolved path is `//evil`),
 * would make this server an open redirect. One that percent-encoding made longer than a `next` may
 * be goes to the dashboard too: it travels in the sign-in's cookie, which must stay under the 4 KB
 * browsers keep.
 */
export function sameOriginNext(next: string | undefined, publicUrl: string): string {
  const fallback = `${new URL(publicUrl).pathname.replace(/\/+$/, "")}/dashboard`;
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return fallback;
  try {
    const origin = new URL(publicUrl).origin;
    const target = new URL(next, origin);
    // The path as resolved is what the browser is sent to: dot segments can collapse into a leading
    // `//` (`/.//evil` is `//evil`), which a browser reads as another host.
    const path = target.pathname;
    if (target.origin !== origin || path.startsWith("//") || path.includes("\\")) return fallback;
    const resolved = path + target.search + target.hash;
    return resolved.length > OIDC_NEXT_MAX_LENGTH ? fallback : resolved;
  } catch {
    return fallback;
  }
}
