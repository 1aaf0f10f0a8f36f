/**
 * The limits of a project's glossary (docs/translators.md "Glossary"), written once. A module that
 * imports nothing: the pages read them without the schemas; model.ts builds the schemas from them.
 */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";

/** A term of the base language, and one of its translations. */
export const GLOSSARY_TERM_MAX_LENGTH = 200;
export const GLOSSARY_NOTE_MAX_LENGTH = 2000;
/** Languages a term has translations in (a project has at most a few hundred). */
export const GLOSSARY_TRANSLATIONS_MAX = 1000;
/** Terms one project's glossary holds: the checks look for each in every base string. */
export const GLOSSARY_TERMS_MAX = 10_000;
/** A CSV file sent to `POST /glossary.csv`, in bytes. */
export const GLOSSARY_CSV_MAX_BYTES = 5 * 1024 * 1024;
