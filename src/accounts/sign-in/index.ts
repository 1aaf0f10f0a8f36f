import { recordAudit } from "../../audit/record.ts";
import type { Clock } from "../../common/clock.ts";
import { forbidden, HttpError, unauthorized } from "../../common/errors.ts";
import type { Settings } from "../../config/settings.ts";
import type { HttpFetch } from "../../deps.ts";
import type { Db } from "../../storage/db.ts";
import { createSession, type StartedSession } from "../sessions.ts";
import { findUserByEmail } from "../users.ts";
import { SignInRefusal, type AnySignInMethod, type SignInMethod } from "./method.ts";
import { oidcSignIn } from "./oidc.ts";
import { passwordSignIn } from "./password.ts";

export type { AnySignInMethod, FormMethod, MethodUrls, RedirectCallback, RedirectMethod, SignInMethod, VerifiedSignIn } from "./method.ts";
export { SignInRefusal, refuseFor } from "./method.ts";
export type { PasswordAttempt } from "./password.ts";
export type { OidcMethod, PendingOidcSignIn } from "./oidc.ts";
export { sameOriginNext } from "./next.ts";
export { SignInSeal } from "./sealed.ts";
export { refusalSentence, SIGN_IN_REFUSALS, type SignInRefusalCode } from "./refusals.ts";

export interface SignInDeps {
  db: Db;
  clock: Clock;
  settings: Settings;
  /** Outgoing HTTP, for a method that calls out (single sign-on's provider). */
  fetch: HttpFetch;
}

/**
 * Every way of signing in this server knows (docs/architecture.md "Adding a sign-in method"): one
 * module each, under its name, made once per app (a method may keep state: the password method its
 * failed-login counters). The dashboard API derives everything else from this registry: each
 * method's routes (a form's `POST` at its path, a redirect's `/<name>/start` and `/<name>/callback`),
 * what `GET /auth-methods` offers (each method's `offer`, under its name, in this order), and where
 * signing out sends a browser (the `endSessionUrl` of the method its session began with).
 */
export function signInMethods(deps: SignInDeps) {
  return {
    password: passwordSignIn(deps),
    oidc: oidcSignIn(deps),
  } satisfies Record<string, AnySignInMethod>;
}

export type SignInMethods = ReturnType<typeof signInMethods>;

/** The registry as the routes read it: methods under their names (a test adds one of its own). */
export type SignInRegistry = Readonly<Record<string, AnySignInMethod>>;

/** The registry's methods, in its order, each under the name it gives itself (its key, test/accounts/sign-in-registry.test.ts). */
export function listMethods(methods: SignInRegistry): AnySignInMethod[] {
  return Object.values(methods);
}

/**
 * A refused sign-in in the audit log, in a transaction of its own (the refusal is the action):
 * who tried (the user of that email, when there is one) and why, never the password.
 */
export function recordFailedSignIn(deps: Pick<SignInDeps, "db" | "clock">, method: string, email: string | null, reason: string, ip: string | null): void {
  deps.db.transaction(() => {
    const user = email ? findUserByEmail(deps.db, email) : undefined;
    const name = user?.name ?? email ?? "unknown";
    recordAudit(deps.db, deps.clock, { actor: { kind: "user", publicId: user?.publicId ?? null, name }, ip }, {
      action: "sign_in_failed",
      target: { kind: "user", id: user?.publicId ?? null, name: email },
      details: { method, reason },
    });
  });
}

/**
 * The one way a sign-in becomes a session, whatever the method: the method verifies, then the
 * session is made if the credential epoch it read is still the user's; if it moved meanwhile, the
 * answer is the method's 401 (docs/dashboard-api.md "Sessions"). Both outcomes are in the audit
 * log: the session's `sign_in` in its transaction, a refusal's `sign_in_failed` in its own.
 */
export async function signIn<Input>(deps: SignInDeps | Pick<SignInDeps, "db" | "clock">, method: SignInMethod<Input>, input: Input, ip: string | null = null): Promise<StartedSession> {
  if (!method.enabled) throw forbidden(`signing in with ${method.name} is turned off on this server`);
  let verified;
  try {
    verified = await method.verify(input);
  } catch (err) {
    // 401 and 403 are refusals of this person; a 429 or 503 is the server protecting itself.
    if (err instanceof HttpError && (err.status === 401 || err.status === 403)) {
      const email = err instanceof SignInRefusal ? err.email : (method.attemptedEmail?.(input) ?? null);
      recordFailedSignIn(deps, method.name, email, err.message, ip);
    }
    throw err;
  }
  const started = createSession(deps.db, deps.clock, verified, { method: method.name, ip, ttlMs: verified.ttlMs, details: verified.details });
  if (!started) {
    recordFailedSignIn(deps, method.name, verified.user.email, method.refusal, ip);
    throw unauthorized(method.refusal);
  }
  return started;
}
