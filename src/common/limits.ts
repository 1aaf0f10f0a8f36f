/**
 * The limits that capabilities on different branches of the folder tree share (docs/architecture.md
 * "Input models"): each is written here once, and the `limits.ts` of every capability that takes
 * such an input re-exports it. Like those, a module that imports nothing.
 */

/**
 * A language code: a BCP 47 tag (`pt-BR`, `zh-Hant-TW`), as the routes take it, the release files
 * are named by it, and the client reads it from a file name or a server's answer. Real ones are far
 * shorter (docs/decisions.md "Foundation").
 */
export const LANGUAGE_CODE_MAX_LENGTH = 35;

/** The shortest password a user may have, checked by the routes and, at start, for the bootstrap admin. */
export const PASSWORD_MIN_LENGTH = 8;
