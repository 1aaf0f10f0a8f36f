import { Type, type Static } from "@sinclair/typebox";
import { FLAG_PARAM_MAX_LENGTH, LANGUAGE_CODE_MAX_LENGTH, MEMORY_NAME_MAX_LENGTH, SUGGESTION_EXACT_SCORE, SUGGESTION_MIN_SCORE } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the translation memory's routes take (docs/architecture.md "Input models"; docs/translators.md
 * "Translation memory", "Pre-translation").
 */

const LanguageCodeRef = Type.String({ maxLength: LANGUAGE_CODE_MAX_LENGTH });
/** `true` or `false`, read by the service so a wrong word is its 400 naming the parameter. */
const FlagParam = Type.String({ maxLength: FLAG_PARAM_MAX_LENGTH });

/** `GET /projects/:pid/keys/:keyId/suggestions?language=CODE[&machine=false]`. */
export const SuggestionsQuery = Type.Object({ language: Type.Optional(LanguageCodeRef), machine: Type.Optional(FlagParam) });
export type SuggestionsQuery = Static<typeof SuggestionsQuery>;

/** `GET /projects/:pid/tm.tmx?language=CODE[&imported=true]`. */
export const MemoryExportQuery = Type.Object({ language: Type.Optional(LanguageCodeRef), imported: Type.Optional(FlagParam) });
export type MemoryExportQuery = Static<typeof MemoryExportQuery>;

/** `POST /projects/:pid/tm/import?name=NAME` (the body is the TMX file). */
export const MemoryImportQuery = Type.Object({ name: Type.Optional(Type.String({ maxLength: MEMORY_NAME_MAX_LENGTH })) });
export type MemoryImportQuery = Static<typeof MemoryImportQuery>;

/** `POST /projects/:pid/pretranslate`. */
export const PretranslateInput = Type.Object({
  language_code: Type.String({ minLength: 1, maxLength: LANGUAGE_CODE_MAX_LENGTH }),
  min_score: Type.Optional(Type.Integer({ minimum: SUGGESTION_MIN_SCORE, maximum: SUGGESTION_EXACT_SCORE })),
  machine: Type.Optional(Type.Boolean()),
});
export type PretranslateInput = Static<typeof PretranslateInput>;
