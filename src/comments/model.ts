import { Type, type Static } from "@sinclair/typebox";
import { COMMENT_MAX_LENGTH, LANGUAGE_CODE_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/** What the comment routes take (docs/architecture.md "Input models"; docs/translators.md "Comments"). */
export const NewComment = Type.Object({
  body: Type.String({ minLength: 1, maxLength: COMMENT_MAX_LENGTH }),
  /** The language the comment is about, or none: the key as a whole. */
  language_code: Type.Optional(Type.Union([Type.String({ maxLength: LANGUAGE_CODE_MAX_LENGTH }), Type.Null()])),
});
export type NewComment = Static<typeof NewComment>;
