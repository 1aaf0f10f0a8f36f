import { Type, type Static } from "@sinclair/typebox";
import { GLOSSARY_NOTE_MAX_LENGTH, GLOSSARY_TERM_MAX_LENGTH, GLOSSARY_TRANSLATIONS_MAX, LANGUAGE_CODE_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/** What the glossary's routes take (docs/architecture.md "Input models"; docs/translators.md "Glossary"). */

const Term = Type.String({ minLength: 1, maxLength: GLOSSARY_TERM_MAX_LENGTH });
/** By language code (any letter case; a code the project lacks is the service's 400); an empty text removes one. */
const Translations = Type.Record(Type.String({ maxLength: LANGUAGE_CODE_MAX_LENGTH }), Type.String({ maxLength: GLOSSARY_TERM_MAX_LENGTH }), {
  maxProperties: GLOSSARY_TRANSLATIONS_MAX,
});
const Note = Type.String({ maxLength: GLOSSARY_NOTE_MAX_LENGTH });

export const NewTerm = Type.Object({
  term: Term,
  translations: Type.Optional(Translations),
  note: Type.Optional(Note),
  case_sensitive: Type.Optional(Type.Boolean()),
  do_not_translate: Type.Optional(Type.Boolean()),
});
export type NewTerm = Static<typeof NewTerm>;

/** A change of a term; `translations` replaces the ones given, by language, and leaves the others. */
export const TermPatch = Type.Object({
  term: Type.Optional(Term),
  translations: Type.Optional(Translations),
  note: Type.Optional(Note),
  case_sensitive: Type.Optional(Type.Boolean()),
  do_not_translate: Type.Optional(Type.Boolean()),
});
export type TermPatch = Static<typeof TermPatch>;
