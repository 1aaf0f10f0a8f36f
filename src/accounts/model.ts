import { Type, type Static } from "@sinclair/typebox";
import { EMAIL_MAX_LENGTH, USER_NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, OIDC_NEXT_MAX_LENGTH, OIDC_PARAM_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the account routes take (docs/architecture.md "Input models"): each limit once, the route
 * schemas built from them, the services' input types from the schemas. Users are also made by
 * `phrasebook user create` and from the bootstrap settings, which check their input against the
 * same models (users.ts); the services check what a schema cannot say: an address's form, a
 * blank name, the last admin.
 */

const Email = Type.String({ maxLength: EMAIL_MAX_LENGTH });
const Name = Type.String({ minLength: 1, maxLength: USER_NAME_MAX_LENGTH });
const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
export const Role = Type.Union([Type.Literal("admin"), Type.Literal("member")]);
export type Role = Static<typeof Role>;

export const NewUser = Type.Object({ email: Email, name: Name, password: Password, role: Role });
export type NewUser = Static<typeof NewUser>;

/** A change of a user; a new password ends their other sessions (docs/dashboard-api.md). */
export const UserPatch = Type.Object({ name: Type.Optional(Name), role: Type.Optional(Role), password: Type.Optional(Password) });
export type UserPatch = Static<typeof UserPatch>;

/** The first admin, at the first-run setup (docs/decisions.md "First run") or from the bootstrap settings. */
export const FirstAdmin = Type.Object({ email: Email, name: Name, password: Password });
export type FirstAdmin = Static<typeof FirstAdmin>;

/** Signing in: only bounded here; a wrong one is the sign-in's 401, never a hint of which part was wrong. */
export const Credentials = Type.Object({ email: Email, password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) });
export type Credentials = Static<typeof Credentials>;

/**
 * `GET /<method>/start?next=` of a sign-in through a provider (`/oidc/start`): where to return after
 * signing in (same origin only, checked by the service).
 */
export const SignInStartQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: OIDC_NEXT_MAX_LENGTH })) });
export type SignInStartQuery = Static<typeof SignInStartQuery>;

/**
 * The provider's callback: the parameters of the authorization response (RFC 6749 §4.1.2, and the
 * `iss` of RFC 9207). Others a provider adds (Keycloak's `session_state`) pass unread.
 */
const CallbackParam = Type.Optional(Type.String({ maxLength: OIDC_PARAM_MAX_LENGTH }));
export const OidcCallbackQuery = Type.Object({ code: CallbackParam, state: CallbackParam, iss: CallbackParam, error: CallbackParam, error_description: CallbackParam });
export type OidcCallbackQuery = Static<typeof OidcCallbackQuery>;
