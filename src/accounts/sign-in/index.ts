import type { Clock } from "../../common/clock.ts";
import { forbidden, unauthorized } from "../../common/errors.ts";
import type { Db } from "../../storage/db.ts";
import { createSession, type StartedSession } from "../sessions.ts";
import type { SignInMethod } from "./method.ts";
import { passwordSignIn } from "./password.ts";

export type { SignInMethod, VerifiedSignIn } from "./method.ts";
export type { PasswordAttempt } from "./password.ts";

export interface SignInDeps {
  db: Db;
  clock: Clock;
}

/**
 * Every way of signing in this server knows (docs/architecture.md "Adding a sign-in method"), one
 * module each, made once per app: a method may keep state (the password method its failed-login
 * counters). Routes take the method they serve from here; what is offered is derived from this list.
 */
export function signInMethods(deps: SignInDeps) {
  return {
    password: passwordSignIn(deps),
  } satisfies Record<string, SignInMethod<never>>;
}

export type SignInMethods = ReturnType<typeof signInMethods>;

/**
 * The one way a sign-in becomes a session, whatever the method: the method verifies, then the
 * session is made if the credential epoch it read is still the user's; if it moved meanwhile, the
 * answer is the method's 401 (docs/dashboard-api.md "Sessions").
 */
export async function signIn<Input>(deps: SignInDeps, method: SignInMethod<Input>, input: Input): Promise<StartedSession> {
  if (!method.enabled) throw forbidden(`signing in with ${method.name} is turned off on this server`);
  const started = createSession(deps.db, deps.clock, await method.verify(input));
  if (!started) throw unauthorized(method.refusal);
  return started;
}
