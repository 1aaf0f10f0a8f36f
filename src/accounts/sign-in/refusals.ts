/**
 * Why a sign-in through a provider did not happen, as the reason code the callback sends the
 * browser back with (`/dashboard/login?sso_error=<code>`) and the one sentence the login page shows
 * for it (docs/dashboard-api.md "Single sign-on"). The URL carries only the code: the page shows
 * its own sentence, so a link with `?sso_error=<anything>` can never put an attacker's words on
 * this server's origin. A module that imports nothing: the login page's script reads it too.
 */
export const SIGN_IN_REFUSALS = {
  expired: "This sign-in has expired or was already used; please sign in again.",
  state: "The sign-in could not be matched to the one started in this browser; please sign in again.",
  unreachable: "The identity provider could not be reached; please try again later.",
  misconfigured: "Single sign-on is misconfigured; an administrator can see why in the server log",
  code: "The identity provider did not accept the sign-in (its code was already used or has expired); please sign in again.",
  invalid: "The identity provider's answer could not be verified, so you were not signed in.",
  provider: "The identity provider did not sign you in (the sign-in was cancelled or refused there).",
  no_email: "The identity provider did not give an email address for your account.",
  unverified: "Your email address is not verified by the identity provider.",
  domain: "Your email address's domain is not allowed to sign in here.",
  group: "You are not in a group that is allowed to sign in here.",
  identity: "Your email address belongs to an account that signs in as another person of the identity provider; an administrator can see why in the server log",
  server: "Signing in did not finish on this server; try again, or ask an administrator to read the server's log.",
} as const;

export type SignInRefusalCode = keyof typeof SIGN_IN_REFUSALS;

/** What the page shows for a code it does not know (an old link, a hand-made one). */
export const SIGN_IN_REFUSED_GENERIC = "Single sign-on did not sign you in; please try again.";

/** The sentence for a code from a URL: only a code of the table (never `__proto__` or `toString`), else the generic one. */
export function refusalSentence(code: string): string {
  return Object.hasOwn(SIGN_IN_REFUSALS, code) ? SIGN_IN_REFUSALS[code as SignInRefusalCode] : SIGN_IN_REFUSED_GENERIC;
}
