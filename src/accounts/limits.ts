/**
 * The limits of what the accounts routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

/** The longest address mail can carry. */
export const EMAIL_MAX_LENGTH = 254;
export const USER_NAME_MAX_LENGTH = 200;
/** Shared with the settings' check of the bootstrap admin (common/limits.ts). */
export { PASSWORD_MIN_LENGTH } from "../common/limits.ts";
/** Long passphrases are welcome; past this, a body is no password but a way to spend hashing time. */
export const PASSWORD_MAX_LENGTH = 1024;
/** Where a single sign-on returns to: a dashboard path with its query. */
export const OIDC_NEXT_MAX_LENGTH = 2048;
/** A provider's `sub`: "at most 255 ASCII characters" (OpenID Connect Core §2). */
export const OIDC_SUBJECT_MAX_LENGTH = 255;
/** A parameter of the provider's callback (code, state, error): providers' codes are far shorter. */
export const OIDC_PARAM_MAX_LENGTH = 4096;

/**
 * Sessions one user keeps at once (a browser each, with room to spare); a new sign-in past this ends
 * the oldest. Successful sign-ins are not throttled, so without a bound each one added a row
 * kept for 14 days (docs/dashboard-api.md "Sessions").
 */
export const SESSIONS_PER_USER_MAX = 20;
