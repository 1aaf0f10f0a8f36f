/**
 * The limits of what the accounts routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

/** The longest address mail can carry. */
export const EMAIL_MAX_LENGTH = 254;
export const USER_NAME_MAX_LENGTH = 200;
export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; past this, a body is no password but a way to spend hashing time. */
export const PASSWORD_MAX_LENGTH = 1024;
/** Where a single sign-on returns to: a dashboard path with its query. */
export const OIDC_NEXT_MAX_LENGTH = 2048;
/** A parameter of the provider's callback (code, state, error): providers' codes are far shorter. */
export const OIDC_PARAM_MAX_LENGTH = 4096;
