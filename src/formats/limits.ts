/**
 * The bounds of one imported file (docs/publishing.md §6 "Limits"), written once. A module that
 * imports nothing, so the dashboard's import page and the readers (read.ts IMPORT_LIMITS) share it
 * without the page bundling a reader.
 */

/** UTF-8 bytes of the file: below the server's 16 MB request limit with room for JSON escaping. */
export const IMPORT_FILE_MAX_BYTES = 10 * 1024 * 1024;
