import type { Clock } from "../../common/clock.ts";
import { randomString } from "../../common/ids.ts";
import { log } from "../../common/log.ts";
import type { Settings } from "../../config/settings.ts";
import type { HttpFetch } from "../../deps.ts";
import type { Db } from "../../storage/db.ts";
import { SignInRefusal, type SignInMethod, type VerifiedSignIn } from "./method.ts";
import { personFromClaims } from "./oidc-claims.ts";
import { linkOidcUser } from "./oidc-users.ts";

type OpenIdClient = typeof import("openid-client");
type Configuration = import("openid-client").Configuration;

/** The path of the callback under the public URL: the redirect URI registered at the provider. */
export const OIDC_CALLBACK_PATH = "/dashboard/api/oidc/callback";
export const OIDC_START_PATH = "/dashboard/api/oidc/start";
/** A sign-in started and not finished is forgotten after this long (a person at the provider's login). */
export const OIDC_PENDING_TTL_MS = 10 * 60_000;
/** Sign-ins under way kept at most; past it the oldest go (they live in memory, see `start`). */
export const OIDC_PENDING_MAX = 10_000;
/** How long the provider's discovery document is reused to start sign-ins. */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** Seconds to wait for the provider on each request (openid-client's `timeout`). */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** Refusals of the flow itself, as the one sentence the login page shows (`?sso_error=`). */
export const OIDC_FLOW_REFUSALS = {
  expired: "This sign-in has expired or was already used; please sign in again.",
  state: "The sign-in could not be matched to the one started in this browser; please sign in again.",
  unreachable: "The identity provider could not be reached; please try again later.",
  code: "The identity provider did not accept the sign-in (its code was already used or has expired); please sign in again.",
  invalid: "The identity provider's answer could not be verified, so you were not signed in.",
} as const;

/** A sign-in under way: what /oidc/start sent the browser off with, kept until its callback. */
export interface PendingOidcSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to go after signing in (same origin, checked at start). */
  next: string;
  createdAt: number;
}

/** The callback: its URL (under the public URL, with the provider's query) and the sign-in it finishes. */
export interface OidcCallback {
  callbackUrl: URL;
  pending: PendingOidcSignIn;
  ip: string | null;
}

export interface OidcMethod extends SignInMethod<OidcCallback> {
  /** The button's label (PHRASEBOOK_OIDC_NAME). */
  readonly label: string;
  /** Begins a sign-in: where to send the browser, and the handle its cookie carries back. */
  start(next: string): Promise<{ location: string; handle: string }>;
  /** The sign-in a callback's cookie names, once: a second use finds nothing. */
  take(handle: string | undefined): PendingOidcSignIn | null;
  /** The provider's logout, for a session that began here; null when it has none. */
  endSessionUrl(): Promise<string | null>;
}

/**
 * Signing in with OpenID Connect (docs/deploy.md "Single sign-on", docs/dashboard-api.md
 * "Single sign-on"): the authorization code flow with PKCE (S256), state and nonce, through `openid-client`, a certified
 * relying party, which checks the ID token's signature, issuer, audience, expiry and nonce. The
 * library is imported on the first sign-in, never at start or on the command line
 * (docs/architecture.md "Loading only what is used"). Every request to the provider goes through
 * `deps.fetch` (docs/architecture.md "Requests the server makes").
 *
 * Sign-ins under way live in memory, keyed by a random handle in a cookie of the browser that
 * started them: one process serves the dashboard, and a restart only asks a person at the
 * provider's login to start again. The handle binds the callback to that browser, so a callback
 * sent to someone else's browser (a login CSRF) finds nothing.
 */
export function oidcSignIn(deps: { db: Db; clock: Clock; settings: Settings; fetch: HttpFetch }): OidcMethod {
  const { settings } = deps;
  const pending = new Map<string, PendingOidcSignIn>();
  const redirectUri = settings.publicUrl + OIDC_CALLBACK_PATH;
  const rules = { groupsClaim: settings.oidcGroupsClaim, allowedDomains: settings.oidcAllowedDomains, allowedGroups: settings.oidcAllowedGroups };
  let library: Promise<OpenIdClient> | undefined;
  let cached: { config: Promise<Configuration>; at: number } | undefined;

  const openid = () => (library ??= import("openid-client"));

  /** The provider's metadata; `fresh` reads it again, and with it the provider's current keys. */
  async function configuration(fresh: boolean): Promise<Configuration> {
    const now = deps.clock.now();
    if (!fresh && cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const oc = await openid();
    const issuer = new URL(settings.oidcIssuer!);
    const secret = settings.oidcClientSecret;
    const config = oc.discovery(issuer, settings.oidcClientId!, secret, secret ? oc.ClientSecretPost(secret) : oc.None(), {
      [oc.customFetch]: (url, init) => deps.fetch(url, init as BunFetchRequestInit),
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // The ID token's signature is checked against the provider's published keys even though it
      // came straight from the token endpoint (OpenID Connect Core §3.1.3.7 would let TLS stand in
      // for it): a token signed by a key the provider does not publish is refused
      // (docs/dashboard-api.md "Single sign-on").
      // http only on loopback: the setting refuses any other (config/settings.ts).
      execute: [oc.enableNonRepudiationChecks, ...(issuer.protocol === "http:" ? [oc.allowInsecureRequests] : [])],
    });
    if (!fresh) {
      cached = { config, at: now };
      config.catch(() => (cached = undefined));
    }
    return config;
  }

  function forgetExpired(now: number): void {
    for (const [handle, p] of pending) {
      if (now - p.createdAt < OIDC_PENDING_TTL_MS && pending.size < OIDC_PENDING_MAX) break;
      pending.delete(handle); // a Map iterates in insertion order: the oldest first
    }
  }

  const refuse = (message: string, email: string | null = null) => new SignInRefusal(401, message, email);

  /**
   * The code for tokens, checked by the library; each sign-in reads the provider's metadata and
   * keys afresh, so a key the provider rotated in is known at once, and a token signed by a key
   * the provider does not publish is refused.
   */
  async function exchange(callbackUrl: URL, p: PendingOidcSignIn): Promise<Record<string, unknown>> {
    let oc: OpenIdClient;
    let config: Configuration;
    try {
      oc = await openid();
      config = await configuration(true);
    } catch (err) {
      log.warn("single sign-on: the provider could not be reached", { error: String(err) });
      throw refuse(OIDC_FLOW_REFUSALS.unreachable);
    }
    try {
      const tokens = await oc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: p.codeVerifier,
        expectedState: p.state,
        expectedNonce: p.nonce,
        idTokenExpected: true,
      });
      const claims: Record<string, unknown> = { ...tokens.claims()! };
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        // The userinfo endpoint's claims count over the ID token's: some providers put groups only there.
        Object.assign(claims, await oc.fetchUserInfo(config, tokens.access_token, claims.sub as string));
      }
      return claims;
    } catch (err) {
      const code = (err as { code?: string }).code;
      const providerSaid = err instanceof oc.ResponseBodyError;
      log.warn("single sign-on: the provider's answer was refused", { code: code ?? null, error: (err as Error).message });
      if (providerSaid) throw refuse(OIDC_FLOW_REFUSALS.code);
      if (err instanceof TypeError || (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError") throw refuse(OIDC_FLOW_REFUSALS.unreachable);
      throw refuse(OIDC_FLOW_REFUSALS.invalid);
    }
  }

  return {
    name: "oidc",
    label: settings.oidcName,
    enabled: settings.oidcIssuer !== undefined,
    refusal: OIDC_FLOW_REFUSALS.invalid,

    async start(next) {
      const oc = await openid();
      const config = await configuration(false);
      const codeVerifier = oc.randomPKCECodeVerifier();
      const state = oc.randomState();
      const nonce = oc.randomNonce();
      const url = oc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.oidcScopes.join(" "),
        code_challenge: await oc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      const now = deps.clock.now();
      forgetExpired(now);
      const handle = randomString(43);
      pending.set(handle, { state, nonce, codeVerifier, next, createdAt: now });
      return { location: url.href, handle };
    },

    take(handle) {
      if (!handle) return null;
      const p = pending.get(handle);
      pending.delete(handle);
      if (!p || deps.clock.now() - p.createdAt >= OIDC_PENDING_TTL_MS) return null;
      return p;
    },

    async verify({ callbackUrl, pending: p, ip }): Promise<VerifiedSignIn> {
      // Checked here too, before the code is spent: the library would refuse it, in its own words.
      if (callbackUrl.searchParams.get("state") !== p.state) throw refuse(OIDC_FLOW_REFUSALS.state);
      const claims = await exchange(callbackUrl, p);
      const read = personFromClaims(claims, rules);
      if ("refusal" in read) throw refuse(read.refusal, read.email);
      const { user, roleKept } = linkOidcUser(deps.db, deps.clock, read.person, settings.oidcAdminGroups, ip);
      return {
        user,
        epoch: user.credentialEpoch,
        ttlMs: settings.oidcSessionHours * 3_600_000,
        details: roleKept ? { role_kept: roleKept, reason: "the last admin is never demoted by single sign-on groups" } : undefined,
      };
    },

    async endSessionUrl() {
      try {
        const oc = await openid();
        const config = await configuration(false);
        if (!config.serverMetadata().end_session_endpoint) return null;
        return oc.buildEndSessionUrl(config, { client_id: settings.oidcClientId!, post_logout_redirect_uri: `${settings.publicUrl}/dashboard/login` }).href;
      } catch (err) {
        log.warn("single sign-on: the provider's logout could not be found", { error: String(err) });
        return null;
      }
    },
  };
}

/**
 * Where a sign-in may return to (docs/dashboard-api.md "Single sign-on"): a path on this
 * server's public origin, else the dashboard. A `next` of another origin, or one a browser reads as another (`//evil`, `/\evil`,
 * and `/.//evil`, whose resolved path is `//evil`), would make this server an open redirect.
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
    return path + target.search + target.hash;
  } catch {
    return fallback;
  }
}
