/**
 * The limits of what the releases routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

export const RELEASE_NAME_MAX_LENGTH = 200;
export const RELEASE_TAG_MAX_LENGTH = 100;

/** docs/releases.md "Channels": a channel's name is `[a-z0-9-]{1,32}`. */
export const CHANNEL_NAME_MAX_LENGTH = 32;
/** A release named by its public id, or `latest` where a diff takes it. */
export const RELEASE_REF_MAX_LENGTH = 64;
/** An ISO 8601 time (`2026-05-01T09:00:00Z`, with milliseconds or an offset). */
export const SCHEDULE_AT_MAX_LENGTH = 40;
/** docs/releases.md "Diff": each list of a diff stops at this many entries; the counts stay whole. */
export const DIFF_LIST_MAX = 1000;

/** A language code, as in the export's query (docs/formats.md "Export"): bounded as everywhere (common/limits.ts). */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";

/**
 * Exports and diffs run on worker threads (docs/formats.md "Export", docs/releases.md "Diff"): this
 * many at once per server, each holding a release's files; as many more wait, and past that a 429.
 */
export const RELEASE_READS_MAX = 2;
export const RELEASE_READS_WAITING_MAX = 8;
export const RELEASE_READS_BUSY_MESSAGE = `${RELEASE_READS_MAX + RELEASE_READS_WAITING_MAX} exports and diffs are already running or waiting; try again shortly`;
