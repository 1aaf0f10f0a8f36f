import { Type, type Static } from "@sinclair/typebox";
import { WholeNumberParam } from "../common/model.ts";
import { FORMAT_NAMES, type FormatName } from "../formats/registry.ts";
import { MESSAGE_SYNTAXES } from "../messages/read-types.ts";
import { KEY_MAX_LENGTH, CONTEXT_MAX_LENGTH, VALUE_MAX_LENGTH, LANGUAGE_CODE_MAX_LENGTH, LANGUAGE_NAME_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH, SEARCH_MAX_LENGTH, LANGUAGE_LIST_MAX_LENGTH, SHOWN_LANGUAGES_MAX_ITEMS, KEYS_PAGE_SIZE_DEFAULT, KEYS_PAGE_SIZE_MAX, PROBLEMS_PAGE_SIZE_DEFAULT, PROBLEMS_PAGE_SIZE_MAX, IMPORT_CONTENT_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/**
 * What authoring takes as input (docs/architecture.md "Input models"): each limit once, the route
 * schemas built from them, and the services' input types from the schemas. Routes validate with
 * these; the services check only what a schema cannot say (a blank name, a code that is no
 * language, a key with control characters), and the key rules again for an import's file entries,
 * which no schema sees (docs/publishing.md §6 "Limits").
 */

const ProjectName = Type.String({ minLength: 1, maxLength: PROJECT_NAME_MAX_LENGTH });
const LanguageCode = Type.String({ minLength: 1, maxLength: LANGUAGE_CODE_MAX_LENGTH });
/** A language code in a query or a list, matched in any letter case among the project's: the service names an unknown one. */
const LanguageCodeRef = Type.String({ maxLength: LANGUAGE_CODE_MAX_LENGTH });
const KeyName = Type.String({ maxLength: KEY_MAX_LENGTH });
const Context = Type.Union([Type.String({ maxLength: CONTEXT_MAX_LENGTH }), Type.Null()]);
const Search = Type.String({ maxLength: SEARCH_MAX_LENGTH });
/** How messages are read and checked (docs/product.md §9): ICU, ICU as gen-l10n reads it, i18next, or text. */
const MessageSyntax = Type.Union(MESSAGE_SYNTAXES.map((s) => Type.Literal(s)));

// Projects and languages (docs/product.md §4)

export const NewProject = Type.Object({ name: ProjectName, base_language_code: LanguageCode, message_syntax: Type.Optional(MessageSyntax) });
export type NewProject = Static<typeof NewProject>;

export const ProjectPatch = Type.Object({
  name: Type.Optional(ProjectName),
  base_language_code: Type.Optional(LanguageCode),
  message_syntax: Type.Optional(MessageSyntax),
  /** Releases carry approved values only, but for the base language (docs/releases.md "Reviewed strings only"). */
  publish_approved_only: Type.Optional(Type.Boolean()),
});
export type ProjectPatch = Static<typeof ProjectPatch>;

export const NewLanguage = Type.Object({ code: LanguageCode, name: Type.Optional(Type.String({ maxLength: LANGUAGE_NAME_MAX_LENGTH })) });
export type NewLanguage = Static<typeof NewLanguage>;

// Keys and translations (docs/product.md §4)

export const NewKey = Type.Object({ key: KeyName, context: Type.Optional(Context) });
export type NewKey = Static<typeof NewKey>;

export const KeyPatch = Type.Object({ key: Type.Optional(KeyName), context: Type.Optional(Context) });
export type KeyPatch = Static<typeof KeyPatch>;

export const TranslationValue = Type.Object({ value: Type.String({ maxLength: VALUE_MAX_LENGTH }) });
export type TranslationValue = Static<typeof TranslationValue>;

/**
 * The key list's filter (docs/product.md §8): a cell's state in one language (`translated` is a
 * value not yet approved), or findings of the message checks in one language or any.
 */
const KeyStatus = Type.Union([Type.Literal("missing"), Type.Literal("translated"), Type.Literal("approved"), Type.Literal("problems")]);
export type KeyStatus = Static<typeof KeyStatus>;

/** Paging and filters are text the service reads, so a bad value is its 400 naming the parameter. */
export const KeyListQuery = Type.Object({
  search: Type.Optional(Search),
  page: Type.Optional(WholeNumberParam),
  page_size: Type.Optional(WholeNumberParam),
  status: Type.Optional(KeyStatus),
  /** The language `status` is about; required except with `problems`. */
  language: Type.Optional(LanguageCodeRef),
  /** Comma-separated codes: only these languages' translations in the answer. */
  languages: Type.Optional(Type.String({ maxLength: LANGUAGE_LIST_MAX_LENGTH })),
  /** `open`: only keys with a comment not yet resolved (docs/translators.md "Comments"). */
  comments: Type.Optional(Type.Literal("open")),
});
export type KeyListQuery = Static<typeof KeyListQuery>;

/** `language` is required; the service says so in its words (the language the counts are about). */
export const KeyCountsQuery = Type.Object({ language: Type.Optional(LanguageCodeRef), search: Type.Optional(Search) });
export type KeyCountsQuery = Static<typeof KeyCountsQuery>;

/** Every message-check finding of a project (docs/product.md §7), one language's or all. */
export const ProblemListQuery = Type.Object({
  language: Type.Optional(LanguageCodeRef),
  severity: Type.Optional(Type.Union([Type.Literal("error"), Type.Literal("warning")])),
  page: Type.Optional(WholeNumberParam),
  page_size: Type.Optional(WholeNumberParam),
});
export type ProblemListQuery = Static<typeof ProblemListQuery>;

/** A page of a key's history, newest first (docs/product.md §8; HISTORY_PAGE_SIZE_MAX bounds it). */
export const HistoryListQuery = Type.Object({
  page: Type.Optional(WholeNumberParam),
  page_size: Type.Optional(WholeNumberParam),
});
export type HistoryListQuery = Static<typeof HistoryListQuery>;

/** The languages a user's key grid shows (docs/product.md §8). */
export const EditorPreferencesInput = Type.Object({ languages: Type.Array(LanguageCodeRef, { maxItems: SHOWN_LANGUAGES_MAX_ITEMS }) });
export type EditorPreferencesInput = Static<typeof EditorPreferencesInput>;

// Import (docs/product.md §6); the file's format is any of the registry's (docs/formats.md).

/** Every format of the registry can be imported (docs/formats.md). */
export const ImportFormat = Type.Union(FORMAT_NAMES.map((name) => Type.Literal(name)));

export const ImportOptions = Type.Object({
  /** Required unless the file names its language(s): ARB `@@locale`, PO `Language`, XLIFF, `.xcstrings` (docs/formats.md "Languages"). */
  language_code: Type.Optional(LanguageCode),
  content: Type.String({ maxLength: IMPORT_CONTENT_MAX_LENGTH }),
  /** Report what would change, change nothing (docs/product.md §6). */
  dry_run: Type.Optional(Type.Boolean()),
  /** Delete the project's keys that the file lacks; base language only. */
  delete_missing: Type.Optional(Type.Boolean()),
  /**
   * Dry runs only: the base language's file of the same push, imported first inside the dry run,
   * so this file is checked against the base strings it will meet (docs/automation.md "Checking a
   * pull request").
   */
  base: Type.Optional(Type.Object({ format: ImportFormat, content: Type.String({ maxLength: IMPORT_CONTENT_MAX_LENGTH }) })),
});
export type ImportOptions = Static<typeof ImportOptions>;


/** The body of `POST /projects/:pid/import`: the options and the file's format. */
export const ImportBody = Type.Object({ ...ImportOptions.properties, format: ImportFormat });
export type ImportInput = Omit<Static<typeof ImportBody>, "format" | "base"> & { format: FormatName; base?: { format: FormatName; content: string } };
