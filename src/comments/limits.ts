/** The limits of comments on keys (docs/translators.md "Comments"), written once; imports nothing. */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";

/** A comment's text: plain text, shown as text (docs/translators.md). */
export const COMMENT_MAX_LENGTH = 4000;
/** Comments one key holds; past it, resolved ones can be deleted. */
export const COMMENTS_PER_KEY_MAX = 1000;
/** `?comments=open` on the key list. */
export const COMMENTS_FILTER_MAX_LENGTH = 10;
