import { Type, type Static } from "@sinclair/typebox";

/**
 * What the token routes take (docs/architecture.md "Input models"): each limit once, the route
 * schema built from them, the service's input type from the schema.
 */

export const TOKEN_NAME_MAX_LENGTH = 100;
/** A scope is a short word (read, write, publish); these bounds only keep a silly body cheap. */
export const SCOPE_NAME_MAX_LENGTH = 20;
export const SCOPES_MAX_ITEMS = 10;

export const NewToken = Type.Object({
  name: Type.String({ maxLength: TOKEN_NAME_MAX_LENGTH }),
  // Which scopes are known, and that at least one is named, is judged by cleanScopes (tokens.ts),
  // so the 400 names the scope at fault (docs/product.md §6).
  scopes: Type.Optional(Type.Array(Type.String({ maxLength: SCOPE_NAME_MAX_LENGTH }), { maxItems: SCOPES_MAX_ITEMS })),
});
export type NewToken = Static<typeof NewToken>;
