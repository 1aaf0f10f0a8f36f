import { normaliseEmail } from "../users.ts";
import { EMAIL_MAX_LENGTH, USER_NAME_MAX_LENGTH } from "../limits.ts";

/**
 * What single sign-on reads from the provider's claims (the ID token's, with the userinfo
 * endpoint's on top), and the checks of docs/dashboard-api.md "Single sign-on" on them: a
 * verified email, an allowed domain, an allowed group. Plain functions of plain data, so the rules
 * are tested without a provider too; the provider's own tests run them end to end
 * (test/accounts/oidc*.test.ts).
 */
export interface OidcPerson {
  email: string;
  name: string;
  groups: string[];
}

export interface OidcRules {
  groupsClaim: string;
  allowedDomains: string[];
  allowedGroups: string[];
}

/** Why a person may not sign in, as the one sentence the login page shows (`?sso_error=`). */
export const OIDC_REFUSALS = {
  noEmail: "The identity provider did not give an email address for your account.",
  unverified: "Your email address is not verified by the identity provider.",
  domain: "Your email address's domain is not allowed to sign in here.",
  group: "You are not in a group that is allowed to sign in here.",
} as const;

/** The groups claim as a list of names: providers send a list, a few a single string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return [];
}

/** `email_verified` must be true; AWS Cognito and some others send the string "true". */
function emailVerified(claims: Record<string, unknown>): boolean {
  return claims.email_verified === true || claims.email_verified === "true";
}

/** The person the claims describe, or the refusal's sentence (with the email when it is known). */
export function personFromClaims(claims: Record<string, unknown>, rules: OidcRules): { person: OidcPerson } | { refusal: string; email: string | null } {
  const raw = typeof claims.email === "string" && claims.email.length <= EMAIL_MAX_LENGTH ? claims.email : null;
  let email: string | null = null;
  try {
    if (raw !== null) email = normaliseEmail(raw);
  } catch {
    email = null;
  }
  if (email === null) return { refusal: OIDC_REFUSALS.noEmail, email: null };
  if (!emailVerified(claims)) return { refusal: OIDC_REFUSALS.unverified, email };
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (rules.allowedDomains.length > 0 && !rules.allowedDomains.includes(domain)) return { refusal: OIDC_REFUSALS.domain, email };
  const groups = groupsOf(claims, rules.groupsClaim);
  if (rules.allowedGroups.length > 0 && !groups.some((g) => rules.allowedGroups.includes(g))) return { refusal: OIDC_REFUSALS.group, email };
  const named = [claims.name, claims.preferred_username].find((n): n is string => typeof n === "string" && n.trim() !== "");
  const name = (named?.trim() ?? email.slice(0, email.indexOf("@"))).slice(0, USER_NAME_MAX_LENGTH);
  return { person: { email, name, groups } };
}
