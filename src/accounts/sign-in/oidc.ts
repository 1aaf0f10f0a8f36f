import type { Clock } from "../../common/clock.ts";
import { log } from "../../common/log.ts";
import type { Settings } from "../../config/settings.ts";
import type { HttpFetch } from "../../deps.ts";
import type { Db } from "../../storage/db.ts";
import { OidcCallbackQuery } from "../model.ts";
import { refuseFor, type RedirectMethod, type VerifiedSignIn } from "./method.ts";
import { personFromClaims } from "./oidc-claims.ts";
import { discoverProvider, logProviderProblem, openidClient, ProviderProblem } from "./oidc-discovery.ts";
import { linkOidcUser } from "./oidc-users.ts";
import { SIGN_IN_REFUSALS } from "./refusals.ts";

type Configuration = import("openid-client").Configuration;

/** The path of the callback under the public URL: the redirect URI registered at the provider. */
export const OIDC_CALLBACK_PATH = "/dashboard/api/oidc/callback";
/** How long the provider's discovery document is reused to start sign-ins. */
const DISCOVERY_TTL_MS = 10 * 60_000;

/** A sign-in under way: what /oidc/start sent the browser off with, sealed into its cookie until the callback. */
export interface PendingOidcSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcMethod extends RedirectMethod<PendingOidcSignIn> {
  /** The button's label (PHRASEBOOK_OIDC_NAME). */
  readonly label: string;
}

/** A discovery that failed, as the person's refusal; its cause goes to the server's log once per try. */
function providerRefusal(err: unknown, when: string) {
  const problem = err instanceof ProviderProblem ? err : new ProviderProblem("unreachable", String(err));
  logProviderProblem(problem, when);
  return refuseFor(problem.kind);
}

/**
 * Signing in with OpenID Connect (docs/deploy.md "Single sign-on", docs/dashboard-api.md
 * "Single sign-on"): the authorization code flow with PKCE (S256), state and nonce, through
 * `openid-client`, a certified relying party, which checks the ID token's signature, issuer,
 * audience, expiry and nonce. The library is imported on the first sign-in, or by the discovery
 * tried after start (oidc-discovery.ts), never on the command line (docs/architecture.md "Loading
 * only what is used"). Every request to the provider goes through `deps.fetch`
 * (docs/architecture.md "Requests the server makes").
 *
 * What a sign-in under way needs at its callback is sealed into a cookie of the browser that
 * started it (sealed.ts, by the dashboard API's routes): nothing is kept here, so starts cannot
 * push anyone's sign-in out, and a callback sent to another browser (a login CSRF) finds nothing.
 */
export function oidcSignIn(deps: { db: Db; clock: Clock; settings: Settings; fetch: HttpFetch }): OidcMethod {
  const { settings } = deps;
  const redirectUri = settings.publicUrl + OIDC_CALLBACK_PATH;
  const rules = { groupsClaim: settings.oidcGroupsClaim, allowedDomains: settings.oidcAllowedDomains, allowedGroups: settings.oidcAllowedGroups };
  let cached: { config: Promise<Configuration>; at: number } | undefined;

  /** The provider's metadata; `fresh` reads it again, and with it the provider's current keys. */
  function configuration(fresh: boolean): Promise<Configuration> {
    const now = deps.clock.now();
    if (!fresh && cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = discoverProvider(settings, deps.fetch);
    if (!fresh) {
      cached = { config, at: now };
      config.catch(() => (cached = undefined));
    }
    return config;
  }

  /**
   * The code for tokens, checked by the library; each sign-in reads the provider's metadata and
   * keys afresh, so a key the provider rotated in is known at once, and a token signed by a key
   * the provider does not publish is refused. Answers the claims and who the ID token names.
   */
  async function exchange(callbackUrl: URL, p: PendingOidcSignIn): Promise<{ claims: Record<string, unknown>; issuer: unknown; subject: unknown }> {
    const oc = await openidClient();
    let config: Configuration;
    try {
      config = await configuration(true);
    } catch (err) {
      throw providerRefusal(err, "at a sign-in's callback");
    }
    try {
      const tokens = await oc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: p.codeVerifier,
        expectedState: p.state,
        expectedNonce: p.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      const claims: Record<string, unknown> = { ...idToken };
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        // The userinfo endpoint's claims count over the ID token's: some providers put groups only there.
        Object.assign(claims, await oc.fetchUserInfo(config, tokens.access_token, idToken.sub));
      }
      // Who signed in is the ID token's issuer and subject, checked by the library; never userinfo's.
      return { claims, issuer: idToken.iss, subject: idToken.sub };
    } catch (err) {
      const code = (err as { code?: string }).code;
      log.warn("single sign-on: the provider's answer was refused", { code: code ?? null, error: (err as Error).message });
      if (err instanceof oc.ResponseBodyError) throw refuseFor("code");
      if (err instanceof TypeError || (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError") throw refuseFor("unreachable");
      throw refuseFor("invalid");
    }
  }

  return {
    kind: "redirect",
    name: "oidc",
    label: settings.oidcName,
    enabled: settings.oidcIssuer !== undefined,
    refusal: SIGN_IN_REFUSALS.invalid,
    callbackQuery: OidcCallbackQuery,
    offer: (urls) => (settings.oidcIssuer !== undefined ? { name: settings.oidcName, start_url: urls.start } : null),

    async start() {
      const oc = await openidClient();
      let config: Configuration;
      try {
        config = await configuration(false);
      } catch (err) {
        throw providerRefusal(err, "at a sign-in's start");
      }
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
      return { location: url.href, pending: { state, nonce, codeVerifier } };
    },

    async verify({ callbackUrl, pending: p, ip }): Promise<VerifiedSignIn> {
      // The person cancelled, or the provider refused them: its `error` is for the log, never the page.
      const error = callbackUrl.searchParams.get("error");
      if (error !== null) {
        log.info("single sign-on: the provider did not sign the person in", { error: error.slice(0, 200) });
        throw refuseFor("provider");
      }
      // Checked here too, before the code is spent: the library would refuse it, in its own words.
      if (callbackUrl.searchParams.get("state") !== p.state) throw refuseFor("state");
      const { claims, issuer, subject } = await exchange(callbackUrl, p);
      const read = personFromClaims(claims, rules, { issuer, subject });
      if ("refusal" in read) throw refuseFor(read.refusal, read.email);
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
        const oc = await openidClient();
        const config = await configuration(false);
        if (!config.serverMetadata().end_session_endpoint) return null;
        return oc.buildEndSessionUrl(config, { client_id: settings.oidcClientId!, post_logout_redirect_uri: `${settings.publicUrl}/dashboard/login` }).href;
      } catch (err) {
        log.warn("single sign-on: the provider's logout could not be found", { error: String(err instanceof ProviderProblem ? err.reason : err) });
        return null;
      }
    },
  };
}
