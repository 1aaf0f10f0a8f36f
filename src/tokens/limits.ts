/**
 * The limits of what the tokens routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

export const TOKEN_NAME_MAX_LENGTH = 100;
/** A scope is a short word (read, write, publish); these bounds only keep a silly body cheap. */
export const SCOPE_NAME_MAX_LENGTH = 20;
export const SCOPES_MAX_ITEMS = 10;
