import { Type, type Static } from "@sinclair/typebox";
import { LANGUAGE_CODE_MAX_LENGTH, MEMBER_LANGUAGES_MAX_ITEMS, PROJECT_ROLE_NAMES } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the members routes take (docs/architecture.md "Input models"): a role and, for a translator
 * or reviewer, the languages it is limited to (docs/dashboard-api.md "Project roles"). The
 * service checks what a schema cannot: that the languages are the project's, and that only a
 * language-limited role has them.
 */
export const ProjectRoleName = Type.Union(PROJECT_ROLE_NAMES.map((role) => Type.Literal(role)));

export const MemberInput = Type.Object({
  role: ProjectRoleName,
  languages: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: LANGUAGE_CODE_MAX_LENGTH }), { maxItems: MEMBER_LANGUAGES_MAX_ITEMS }), Type.Null()])),
});
export type MemberInput = Static<typeof MemberInput>;
