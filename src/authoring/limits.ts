/**
 * The limits of what the authoring routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

/** Keys are kept exactly as authored, up to this long (docs/decisions.md "Foundation"). */
export const KEY_MAX_LENGTH = 512;
export const CONTEXT_MAX_LENGTH = 2000;
/** docs/decisions.md "Foundation". */
export const VALUE_MAX_LENGTH = 100_000;
/** A BCP 47 tag: one bound for every capability that takes one (common/limits.ts). */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";
export const LANGUAGE_NAME_MAX_LENGTH = 100;
export const PROJECT_NAME_MAX_LENGTH = 200;
/** The text of a key list's or key count's `search`. */
export const SEARCH_MAX_LENGTH = 500;
/** The key list's `languages=en,de`: a few hundred codes at most. */
export const LANGUAGE_LIST_MAX_LENGTH = 2000;
/** A project has at most a few hundred languages; the bound keeps a silly body cheap. */
export const SHOWN_LANGUAGES_MAX_ITEMS = 1000;
export const KEYS_PAGE_SIZE_DEFAULT = 50;
export const KEYS_PAGE_SIZE_MAX = 500;
/**
 * The values one page of the key list may hold, in UTF-8 bytes over the languages it shows: 50
 * keys of 100,000-character values in 50 languages made a 239 MB reply that took the server from
 * 87 MB to a 746 MB peak and held its thread for 8 seconds. Reading and writing a page as JSON
 * costs the server's thread about 12 ms a megabyte, so 8 MB keeps one page near 100 ms; it holds
 * 50 keys of 40 KB values in 4 languages, or of 3 KB values in 50. A page past it is a 400 that
 * says to ask for fewer languages or keys (docs/dashboard-api.md "Keys").
 */
export const KEYS_PAGE_VALUES_MAX_BYTES = 8 * 1024 * 1024;
export const PROBLEMS_PAGE_SIZE_DEFAULT = 100;
export const PROBLEMS_PAGE_SIZE_MAX = 1000;
/**
 * A key's history is paged: every save adds an entry of up to two values of VALUE_MAX_LENGTH, so
 * one answer holds at most this many entries (about 20 MB), however often the key was saved.
 */
export const HISTORY_PAGE_SIZE_DEFAULT = 50;
/**
 * A translation's history keeps its newest this many entries, and its newest approval however old
 * (what a release of reviewed strings only ships, docs/releases.md "Reviewed strings only"): a
 * page's worth. Each entry may hold two values of VALUE_MAX_LENGTH, so one cell holds at most
 * about 20 MB of history, however often it is saved.
 */
export const HISTORY_KEPT_PER_CELL = 50;
export const HISTORY_PAGE_SIZE_MAX = 100;
/**
 * The import's file travels as a JSON string inside a request body of at most 16 MB; the file
 * itself may be at most 10 MB of UTF-8 (formats/read.ts IMPORT_LIMITS), a 413 naming that limit.
 */
export const IMPORT_CONTENT_MAX_LENGTH = 16 * 1024 * 1024;

/** Imports waiting or running at once, per server; more are a 429 (each may hold a 10 MB file). */
export const IMPORT_QUEUE_MAX = 8;
/** The refusal of an import past IMPORT_QUEUE_MAX, answered as a 429 with Retry-After: 5. */
export const IMPORTS_BUSY_MESSAGE = `${IMPORT_QUEUE_MAX} imports are already running or waiting; try again shortly`;
/**
 * Of those places, one caller (a user, or a token) holds at most this many: one running and one
 * waiting behind it. A member or CI job looping imports then fills two places, never all eight,
 * and the others' imports still get in (docs/publishing.md §6 "Limits").
 */
export const IMPORTS_PER_CALLER_MAX = 2;
/** The refusal of a caller's import past IMPORTS_PER_CALLER_MAX, a 429 with Retry-After: 5. */
export const IMPORTS_PER_CALLER_BUSY_MESSAGE = `you already have ${IMPORTS_PER_CALLER_MAX} imports running or waiting; wait for one to finish`;
/**
 * Of those places, one project's imports hold at most this many. A project's imports run one at a
 * time, so they wait behind each other; the places left stay open to other projects, whose imports
 * run beside them (docs/publishing.md §6 "All or nothing, one at a time").
 */
export const IMPORTS_PER_PROJECT_MAX = 4;
/** The refusal of an import past IMPORTS_PER_PROJECT_MAX, a 429 with Retry-After: 5. */
export const IMPORTS_PER_PROJECT_BUSY_MESSAGE = `${IMPORTS_PER_PROJECT_MAX} imports of this project are already running or waiting; try again shortly`;

/**
 * A search shorter than the trigram index can find (one or two characters) walks the keys in key
 * order, a chunk at a time, and stops once the page is full and this many matches past it are
 * counted: its `page_info.total_count` is then a lower bound (`total_at_least: true`). The walk
 * reads at most SHORT_SEARCH_VALUE_BUDGET values (keys walked x the project's languages; a key's
 * values lie apart, about 5 µs each at 50,000 x 20); a term too rare to fill its page within that
 * is answered by one pass over every value, exactly, as before (docs/dashboard.md "Speed").
 */
export const SHORT_SEARCH_LOOKAHEAD = 200;
export const SHORT_SEARCH_VALUE_BUDGET = 25_000;
export const SHORT_SEARCH_CHUNK_KEYS = 200;

/**
 * The key grid's searches, filters and counts, and the problem list, run on a pool of this many
 * worker threads (authoring/key-reads.ts): as many as the 2-core machine of the size goal has
 * cores, so the server's own thread, at a higher priority, always finds one free.
 */
export const KEY_READS_AT_ONCE = 2;
/** Reads running or waiting at once, per server; more are a 429. */
export const KEY_READS_MAX = 32;
/**
 * Of those places, one caller (a user, or a token) holds at most this many: one running (a caller
 * runs one at a time) and the rest waiting. The grid asks for a page and its counts at once, and a
 * second search before the first is answered asks for two more.
 */
export const KEY_READS_PER_CALLER_MAX = 4;
/** The Retry-After of their 429s: a read takes at most about a second at 100,000 x 50. */
export const KEY_READS_RETRY_AFTER_SECONDS = 1;
export const KEY_READS_BUSY_MESSAGE = `${KEY_READS_MAX} searches are already running or waiting; try again shortly`;
export const KEY_READS_PER_CALLER_BUSY_MESSAGE = `you already have ${KEY_READS_PER_CALLER_MAX} searches running or waiting; wait for one to finish`;
