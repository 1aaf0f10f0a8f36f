/**
 * The client's bounds (docs/automation.md "What the client trusts"): it trusts nothing a server
 * says, so every answer is bounded in size, count, pages and time, and a local file in size before
 * it is read. Plain constants, importing nothing (docs/architecture.md "Input models").
 */

/** A JSON answer of the API (a release with its languages is a few KB; a page of 100 releases less). */
export const JSON_ANSWER_MAX_BYTES = 8 * 1024 * 1024;
/** A downloaded release file, streamed to disk (a file of the import limit is 10 MB; escaping may grow it). */
export const DOWNLOAD_MAX_BYTES = 64 * 1024 * 1024;
/** Pages of `GET /v1/releases` read to find a tag (100 releases each). */
export const RELEASE_PAGES_MAX = 100;
/** Languages of one release (a project has at most a few hundred). */
export const RELEASE_LANGUAGES_MAX = 1000;
/** Redirects followed to a download, each on an allowed origin. */
export const REDIRECTS_MAX = 5;
/** How long a request may take, body included; an import of a large file takes longest. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const IMPORT_TIMEOUT_MS = 10 * 60_000;
/** How long an answer may send nothing before it counts as stalled. */
export const STALL_TIMEOUT_MS = 20_000;
/** Problems printed one a line before the rest is counted (docs/automation.md). */
export const PROBLEM_LINES_MAX = 20;
