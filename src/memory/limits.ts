/**
 * The limits of the translation memory (docs/translators.md "Translation memory"), written once. A
 * module that imports nothing, so the pages and the command-line client read them without the
 * schemas; model.ts builds the schemas from them and re-exports them.
 */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";

/** The most suggestions one answer lists (docs/translators.md). */
export const SUGGESTIONS_MAX = 10;
/** A memory match scores at least this much to be suggested (docs/translators.md). */
export const SUGGESTION_MIN_SCORE = 75;
/** The score of a base string equal to this key's (after trimming and collapsing white space). */
export const SUGGESTION_EXACT_SCORE = 100;
/** A TMX file sent to `POST /tm/import`, in bytes (a TMX of 100,000 short units is about 20 MB). */
export const MEMORY_IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/** Translation units in one TMX file. */
export const MEMORY_IMPORT_UNITS_MAX = 500_000;
/** The name an imported memory is listed under (`?name=`; default the file's creation tool and date). */
export const MEMORY_NAME_MAX_LENGTH = 200;
/** The text of one segment of an imported memory: a translation value's limit (docs/decisions.md "Foundation"). */
export const MEMORY_SEGMENT_MAX_LENGTH = 100_000;
/** A `true`/`false` query parameter. */
export const FLAG_PARAM_MAX_LENGTH = 5;
/** The score a pre-translation asks of memory matches unless told (docs/translators.md "Pre-translation"). */
export const PRETRANSLATE_MIN_SCORE_DEFAULT = 100;
/** Missing values one pre-translation fills at most; run it again for more. */
export const PRETRANSLATE_MAX_VALUES = 100_000;
