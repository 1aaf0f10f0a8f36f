import type { TSchema } from "@sinclair/typebox";
import { HttpError } from "../../common/errors.ts";
import type { UserRow } from "../../storage/schema.ts";
import { SIGN_IN_REFUSALS, type SignInRefusalCode } from "./refusals.ts";

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
 * for the `sign_in_failed` audit entry, and, for a method that sends the browser back to the login
 * page, the reason code the page turns into its own sentence (refusals.ts). Over HTTP it is the
 * HttpError it extends.
 */
export class SignInRefusal extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly email: string | null,
    readonly code: SignInRefusalCode | null = null,
  ) {
    super(status, message);
  }
}

/** A provider's sign-in refused for `code`: a 401 whose message is the code's sentence. */
export function refuseFor(code: SignInRefusalCode, email: string | null = null): SignInRefusal {
  return new SignInRefusal(401, SIGN_IN_REFUSALS[code], email, code);
}

/** The URLs of a method's routes, as the login page is told them. */
export interface MethodUrls {
  /** `<PUBLIC_URL>/dashboard/api/<name>/start` (a redirect method's first step). */
  start: string;
}

/**
 * What every way of signing in has. Each method is a module of this folder exporting a factory
 * that returns one of the kinds below, named in the registry of `index.ts`; the dashboard API
 * derives its routes, `GET /auth-methods` and the logout's `end_session_url` from that registry
 * (dashboard-api/session.ts).
 */
interface MethodBase<Input> {
  /**
   * Its key in `GET /auth-methods`, its audit entries and its sessions' `sign_in_method`, and the
   * path segment of a redirect method's routes ("password", "oidc").
   */
  readonly name: string;
  /** Whether this server lets anyone sign in with it (from its settings). */
  readonly enabled: boolean;
  /** The message of its 401, the same for every reason, so it reveals nothing (which accounts exist). */
  readonly refusal: string;
  /**
   * Checks the input and answers who signed in, or throws: the 401 with `refusal` (or a
   * SignInRefusal with a code), or a 429 or a 503 when the method is limited.
   */
  verify(input: Input): Promise<VerifiedSignIn>;
  /** The email an input tried, for the audit log of a failed sign-in (never the password). */
  attemptedEmail?(input: Input): string | null;
  /** What `GET /auth-methods` says of it under its name: what the login page offers. */
  offer(urls: MethodUrls): unknown;
  /** Where a browser ends the provider's session too, for a session this method began; null when nowhere. */
  endSessionUrl?(): Promise<string | null>;
}

/** A method whose proof is a JSON body posted to its own path (an email and a password: `POST /login`). */
export interface FormMethod<Body, Input> extends MethodBase<Input> {
  readonly kind: "form";
  /** The route, under the dashboard API ("/login"). */
  readonly path: string;
  /** The body's schema (its capability's model, docs/architecture.md "Input models"). */
  readonly body: TSchema;
  /** The body as the method's input, with the client's address (failed attempts are limited by it). */
  input(body: Body, address: string): Input;
}

/**
 * A method that sends the browser to a provider and back: `GET /<name>/start?next=` answers a
 * redirect there, with what the callback needs (`pending`) sealed into a cookie of that browser
 * (sealed.ts); `GET /<name>/callback` opens the cookie and hands it to `verify`. Every refusal goes
 * back to the login page as a reason code.
 */
export interface RedirectMethod<Pending> extends MethodBase<RedirectCallback<Pending>> {
  readonly kind: "redirect";
  /** The callback's query (the provider's parameters), bounded by the method's model. */
  readonly callbackQuery: TSchema;
  /** Where to send the browser, and what its callback must find; throws a SignInRefusal when the provider cannot be used. */
  start(): Promise<{ location: string; pending: Pending }>;
}

/** A redirect method's callback: its URL (under the public URL, with the provider's query) and the sign-in it finishes. */
export interface RedirectCallback<Pending> {
  callbackUrl: URL;
  pending: Pending;
  ip: string | null;
}

/** A method of any kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySignInMethod = FormMethod<any, any> | RedirectMethod<any>;

/** A method as `signIn` takes it: whatever its kind, it verifies an input. */
export type SignInMethod<Input> = MethodBase<Input>;
