import type { HttpFetch } from "../deps.ts";
import { isIpLiteral, type AllowList } from "./address-guard.ts";
import { readCappedBody } from "./body.ts";
import { describeFetchError } from "./failure.ts";
import { signatureHeaders } from "./signing.ts";
import { pinnedUrl, vetTarget, type HostResolver } from "./target.ts";

/** docs/interface.md §6.3: the literal User-Agent every delivery carries. */
import { USER_AGENT } from "../common/signature.ts";
export { USER_AGENT };

export interface AttemptInput {
  url: string;
  secret: string | null;
  event: string;
  eventVersion: number;
  deliveryPublicId: string;
  payload: string;
}

export interface AttemptEnv {
  /** The server's outgoing HTTP (AppDeps.fetch). */
  fetch: HttpFetch;
  resolver: HostResolver;
  allow: AllowList;
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM). Operators use NODE_EXTRA_CA_CERTS; in-process tests pass theirs here. */
  ca?: string;
  /** Aborts the attempt without an outcome (shutdown). */
  signal?: AbortSignal;
  now(): number;
}

export interface AttemptOutcome {
  startedAt: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseStatus: number | null;
  responseBody: string | null;
  responseBodyTruncated: boolean;
  failureReason: string | null;
  succeeded: boolean;
}

/**
 * The exact headers of one attempt (docs/interface.md §6.3). Every header the client would
 * otherwise add on its own is set here, so the log shows what the receiver got.
 * `Accept-Encoding: identity` keeps the logged body the receiver's own bytes and rules out
 * decompression bombs.
 */
export function requestHeaders(input: AttemptInput, url: URL, timestampSeconds: number): Record<string, string> {
  return {
    Host: url.host,
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(input.payload)),
    "User-Agent": USER_AGENT,
    Accept: "*/*",
    "Accept-Encoding": "identity",
    Connection: "keep-alive",
    "X-Service-Event": input.event,
    "X-Service-Event-Version": String(input.eventVersion),
    "X-Service-Delivery": input.deliveryPublicId,
    ...signatureHeaders(input.secret, timestampSeconds, input.payload),
  };
}

/**
 * One POST to a receiver: vet the address (docs/interface.md §6.1 rule 2), connect to exactly that
 * address with TLS verified for the original host name, follow no redirect, never use a proxy (a
 * proxy would resolve the name again, past the check), and give up after the timeout
 * (docs/interface.md §6.4).
 */
export async function sendAttempt(input: AttemptInput, env: AttemptEnv): Promise<AttemptOutcome> {
  const startedAt = env.now();
  const t0 = performance.now();
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    url = new URL("https://invalid.invalid/");
  }
  const headers = requestHeaders(input, url, Math.floor(startedAt / 1000));
  const timeout = AbortSignal.timeout(env.timeoutMs);
  const signal = env.signal ? AbortSignal.any([env.signal, timeout]) : timeout;
  const done = (o: Partial<AttemptOutcome>): AttemptOutcome => ({
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    requestHeaders: headers,
    responseStatus: null,
    responseBody: null,
    responseBodyTruncated: false,
    failureReason: null,
    succeeded: false,
    ...o,
  });
  const timeoutReason = () => `timeout: no response within ${env.timeoutMs / 1000} s`;

  try {
    if (url.protocol !== "https:" || !URL.canParse(input.url)) return done({ failureReason: "the endpoint URL is not a valid https URL" });
    const target = await Promise.race([vetTarget(url, env.resolver, env.allow), aborted(signal)]);
    if (!target.ok) return done({ failureReason: target.reason });
    const tls: Record<string, string> = {};
    // TLS is verified for the name the user saved, not for the address we pinned.
    if (!isIpLiteral(url.hostname)) tls.serverName = url.hostname;
    if (env.ca) tls.ca = env.ca;
    const response = await env.fetch(pinnedUrl(url, target), {
      method: "POST",
      headers,
      body: input.payload,
      redirect: "manual",
      proxy: false,
      decompress: false,
      keepalive: true,
      tls,
      signal,
    });
    const body = await readCappedBody(response);
    const status = response.status;
    const succeeded = status >= 200 && status <= 299;
    let failureReason: string | null = null;
    if (!succeeded) {
      const location = response.headers.get("location");
      failureReason = status >= 300 && status <= 399
        ? `redirect ${status} not followed${location ? ` (Location: ${location.slice(0, 500)})` : ""}`
        : `HTTP ${status}`;
    }
    return done({ responseStatus: status, responseBody: body.text, responseBodyTruncated: body.truncated, failureReason, succeeded });
  } catch (err) {
    if (env.signal?.aborted) throw env.signal.reason;
    if (timeout.aborted) return done({ failureReason: timeoutReason() });
    return done({ failureReason: describeFetchError(err) });
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
