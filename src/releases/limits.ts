/**
 * The limits of what the releases routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

export const RELEASE_NAME_MAX_LENGTH = 200;
export const RELEASE_TAG_MAX_LENGTH = 100;
/** A language code in the export's query (docs/formats.md "Export"); codes are BCP 47 tags of at most 35 characters. */
export const EXPORT_LANGUAGE_MAX_LENGTH = 35;
