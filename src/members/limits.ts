/**
 * The limits of what the members routes take (docs/architecture.md "Input models"). Imports nothing,
 * so the dashboard's script reads them without the schemas.
 */

/** The project roles, lowest first: each holds the rights of those before it (docs/dashboard-api.md "Project roles"). */
export const PROJECT_ROLE_NAMES = ["viewer", "translator", "reviewer", "developer", "publisher", "admin"] as const;
/** The roles a `languages` list limits; the others reach every language. */
export const LANGUAGE_LIMITED_ROLES = ["translator", "reviewer"] as const;
/** A project has at most a few hundred languages. */
export const MEMBER_LANGUAGES_MAX_ITEMS = 1000;
/** A BCP 47 tag, bounded as everywhere (common/limits.ts). */
export { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";
