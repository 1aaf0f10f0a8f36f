import { normaliseEmail } from "../users.ts";
import { EMAIL_MAX_LENGTH, OIDC_SUBJECT_MAX_LENGTH, USER_NAME_MAX_LENGTH } from "../limits.ts";
import type { SignInRefusalCode } from "./refusals.ts";

/**
 * What single sign-on reads from the provider's claims (the ID token's, with the userinfo
 * endpoint's on top), and the checks of docs/dashboard-api.md "Single sign-on" on them: a
 * verified email, an allowed domain, an allowed group. Plain functions of plain data, so the rules
 * are tested without a provider too; the provider's own tests run them end to end
 * (test/accounts/oidc*.test.ts).
 */
export interface OidcPerson {
  /** The provider (the ID token's `iss`) and who the person is there (its `sub`): what the account is bound to. */
  issuer: string;
  subject: string;
  email: string;
  name: string;
  groups: string[];
}

export interface OidcRules {
  groupsClaim: string;
  allowedDomains: string[];
  allowedGroups: string[];
}

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

/**
 * The person the claims describe, or the refusal's reason code (refusals.ts; with the email when it
 * is known). `id` is the ID token's issuer and subject, which the library has checked.
 */
export function personFromClaims(claims: Record<string, unknown>, rules: OidcRules, id: { issuer: unknown; subject: unknown }): { person: OidcPerson } | { refusal: SignInRefusalCode; email: string | null } {
  const { issuer, subject } = id;
  if (typeof issuer !== "string" || typeof subject !== "string" || subject === "" || subject.length > OIDC_SUBJECT_MAX_LENGTH) return { refusal: "invalid", email: null };
  const raw = typeof claims.email === "string" && claims.email.length <= EMAIL_MAX_LENGTH ? claims.email : null;
  let email: string | null = null;
  try {
    if (raw !== null) email = normaliseEmail(raw);
  } catch {
    email = null;
  }
  if (email === null) return { refusal: "no_email", email: null };
  if (!emailVerified(claims)) return { refusal: "unverified", email };
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (rules.allowedDomains.length > 0 && !rules.allowedDomains.includes(domain)) return { refusal: "domain", email };
  const groups = groupsOf(claims, rules.groupsClaim);
  if (rules.allowedGroups.length > 0 && !groups.some((g) => rules.allowedGroups.includes(g))) return { refusal: "group", email };
  const named = [claims.name, claims.preferred_username].find((n): n is string => typeof n === "string" && n.trim() !== "");
  const name = (named?.trim() ?? email.slice(0, email.indexOf("@"))).slice(0, USER_NAME_MAX_LENGTH);
  return { person: { issuer, subject, email, name, groups } };
}
