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

/** A language code in the export's query (docs/formats.md "Export"); codes are BCP 47 tags of at most 35 characters. */
export const EXPORT_LANGUAGE_MAX_LENGTH = 35;
