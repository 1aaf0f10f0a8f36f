import { log } from "../../common/log.ts";
import type { Settings } from "../../config/settings.ts";
import type { HttpFetch } from "../../deps.ts";

type OpenIdClient = typeof import("openid-client");
type Configuration = import("openid-client").Configuration;

/** Seconds to wait for the provider on each request (openid-client's `timeout`). */
export const PROVIDER_TIMEOUT_SECONDS = 10;

type OidcSettings = Pick<Settings, "oidcIssuer" | "oidcClientId" | "oidcClientSecret">;

/**
 * Why the provider's metadata could not be had: `unreachable` (no answer, a timeout, the provider's
 * own 5xx: try again later) or `misconfigured` (it answered, and what it said does not fit the
 * settings: an issuer that differs from the one its discovery document names, a discovery URL that
 * is not one). `reason` is the sentence the server's log gives an administrator.
 */
export class ProviderProblem extends Error {
  constructor(
    readonly kind: "unreachable" | "misconfigured",
    readonly reason: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

let library: Promise<OpenIdClient> | undefined;
/** openid-client, imported when single sign-on first needs it (docs/architecture.md "Loading only what is used"). */
export const openidClient = (): Promise<OpenIdClient> => (library ??= import("openid-client"));

/** The discovery document's URL for an issuer, as openid-client builds it (OpenID Connect Discovery §4). */
export function discoveryUrl(issuer: string): string {
  const url = new URL(issuer);
  url.pathname = `${url.pathname}/.well-known/openid-configuration`.replace(/\/\/+/g, "/");
  return url.href;
}

/**
 * What an error of discovery means, for the person (the kind) and the administrator (the cause, with
 * both issuers when they differ, and the hint when they differ by a trailing slash only).
 */
export function describeDiscoveryError(err: unknown, issuer: string): ProviderProblem {
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  const url = discoveryUrl(issuer);
  if (e.code === "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED") {
    const discovered = String((e.cause as { body?: { issuer?: unknown } })?.body?.issuer ?? "");
    const slash = discovered.replace(/\/$/, "") === issuer.replace(/\/$/, "");
    const hint = slash
      ? ` They differ only by the trailing slash: set PHRASEBOOK_OIDC_ISSUER to ${JSON.stringify(discovered)} exactly, with${discovered.endsWith("/") ? "" : "out"} it.`
      : ` Set PHRASEBOOK_OIDC_ISSUER to the issuer the provider names, character for character.`;
    return new ProviderProblem("misconfigured", `PHRASEBOOK_OIDC_ISSUER is ${JSON.stringify(issuer)}, but the provider's discovery document (${url}) names its issuer ${JSON.stringify(discovered)}; they must be equal.${hint}`, { configured_issuer: issuer, discovered_issuer: discovered });
  }
  if (e.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" && e.cause instanceof Response) {
    const status = e.cause.status;
    if (status >= 500) return new ProviderProblem("unreachable", `the provider answered ${status} for its discovery document (${url})`, { status });
    return new ProviderProblem("misconfigured", `the provider answered ${status} for ${url}, where PHRASEBOOK_OIDC_ISSUER says its discovery document is: is the issuer right?`, { status });
  }
  if (e.code === "OAUTH_RESPONSE_IS_NOT_JSON" || e.code === "OAUTH_PARSE_ERROR" || e.code === "OAUTH_INVALID_RESPONSE") {
    return new ProviderProblem("misconfigured", `${url} is not an OpenID Connect discovery document (${e.message}): is PHRASEBOOK_OIDC_ISSUER the provider's issuer?`);
  }
  if (e.code === "OAUTH_HTTP_REQUEST_FORBIDDEN" || e.code === "OAUTH_REQUEST_PROTOCOL_FORBIDDEN") {
    return new ProviderProblem("misconfigured", `the provider's discovery refused a request (${e.message}): its metadata names an http endpoint`);
  }
  const network = err instanceof TypeError || e.code === "OAUTH_TIMEOUT" || e.code === "OAUTH_ABORT" || e.name === "TimeoutError" || e.name === "AbortError";
  const why = [e.message, (e.cause as Error | undefined)?.message].filter(Boolean).join(": ");
  return new ProviderProblem(network ? "unreachable" : "misconfigured", `${network ? "the provider could not be reached" : "the provider's discovery failed"} at ${url} (${why || String(err)})`);
}

/**
 * The provider's metadata, as `openid-client` reads and checks it (OpenID Connect Discovery), or a
 * ProviderProblem. Every request goes through `fetch` (docs/architecture.md "Requests the server
 * makes").
 */
export async function discoverProvider(settings: OidcSettings, fetch: HttpFetch): Promise<Configuration> {
  const oc = await openidClient();
  const issuer = new URL(settings.oidcIssuer!);
  const secret = settings.oidcClientSecret;
  try {
    return await oc.discovery(issuer, settings.oidcClientId!, secret, secret ? oc.ClientSecretPost(secret) : oc.None(), {
      [oc.customFetch]: (url, init) => fetch(url, init as BunFetchRequestInit),
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // The ID token's signature is checked against the provider's published keys even though it
      // came straight from the token endpoint (OpenID Connect Core §3.1.3.7 would let TLS stand in
      // for it): a token signed by a key the provider does not publish is refused
      // (docs/dashboard-api.md "Single sign-on").
      // http only on loopback: the setting refuses any other (config/settings.ts).
      execute: [oc.enableNonRepudiationChecks, ...(issuer.protocol === "http:" ? [oc.allowInsecureRequests] : [])],
    });
  } catch (err) {
    throw describeDiscoveryError(err, settings.oidcIssuer!);
  }
}

/** A problem in the server's log: one warning naming the cause (and both issuers when they differ). */
export function logProviderProblem(problem: ProviderProblem, when: string): void {
  log.warn(`single sign-on: ${problem.kind === "misconfigured" ? "misconfigured" : "the provider could not be reached"} (${when}): ${problem.reason}`, { ...problem.fields });
}

/**
 * Tried once after the server starts listening, with single sign-on set up (docs/deploy.md "Single
 * sign-on"): a mistake in the settings is in the log at start, not at the first person's sign-in.
 * It never stops the start (the provider may be down for a while); a sign-in tries again.
 */
export async function checkProviderAtStart(settings: OidcSettings, fetch: HttpFetch): Promise<void> {
  if (settings.oidcIssuer === undefined) return;
  try {
    await discoverProvider(settings, fetch);
    log.info("single sign-on: the provider's discovery document matches PHRASEBOOK_OIDC_ISSUER", { issuer: settings.oidcIssuer });
  } catch (err) {
    logProviderProblem(err instanceof ProviderProblem ? err : describeDiscoveryError(err, settings.oidcIssuer), "at start");
  }
}
