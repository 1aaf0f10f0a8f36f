/**
 * The limits of app builds (docs/delivery.md "App builds"), written once. A module that imports
 * nothing, so the command-line client reads them without loading the schemas.
 */

/** A project keeps its most recently registered builds; an older one is 404 and its app keeps its bundle. */
export const BUILDS_KEPT = 50;
export const BUILD_NAME_MAX_LENGTH = 200;
/** Base files of one build (the `files:` entries of a phrasebook.yaml): one at least. */
export const BUILD_FILES_MIN = 1;
export const BUILD_FILES_MAX = 20;
/** One base file's text, as an import's (docs/publishing.md §6 "Limits"): the body may hold 16 MB. */
export const BUILD_FILE_MAX_LENGTH = 16 * 1024 * 1024;
