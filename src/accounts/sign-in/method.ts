import { HttpError } from "../../common/errors.ts";
import type { UserRow } from "../../storage/schema.ts";

/**
 * What a sign-in method proves (docs/architecture.md "Adding a sign-in method"): which user, and
 * the user's credential epoch read together with the proof. The session is made only while that
 * epoch is still the user's (`createSession`), so a sign-in that raced a password change, a role
 * change or a deletion gets none (docs/dashboard-api.md "Sessions").
 */
export interface VerifiedSignIn {
  user: UserRow;
  epoch: number;
  /** How long the session lasts, when the method says (single sign-on: PHRASEBOOK_OIDC_SESSION_HOURS). */
  ttlMs?: number;
  /** More for the `sign_in` audit entry (a role kept because the user is the last admin). */
  details?: Record<string, unknown>;
}

/**
 * A refusal that knows which email tried (single sign-on learns it from the provider's answer),
 * for the `sign_in_failed` audit entry; over HTTP it is the HttpError it extends.
 */
export class SignInRefusal extends HttpError {
  constructor(status: number, message: string, readonly email: string | null) {
    super(status, message);
  }
}

/**
 * One way of signing in. Each method is a module of this folder exporting a factory that returns
 * this shape, listed in `index.ts`; routes call `signIn(…, method, input)`.
 */
export interface SignInMethod<Input> {
  /** How the method is named to users and in `GET /auth-methods` ("password"). */
  readonly name: string;
  /** Whether this server offers the method (from its settings). */
  readonly enabled: boolean;
  /** The message of its 401, the same for every reason, so it reveals nothing (which accounts exist). */
  readonly refusal: string;
  /**
   * Checks the input and answers who signed in, or throws: the 401 with `refusal`, or a 429 or a
   * 503 when the method is limited.
   */
  verify(input: Input): Promise<VerifiedSignIn>;
  /** The email an input tried, for the audit log of a failed sign-in (never the password). */
  attemptedEmail?(input: Input): string | null;
}
