import { Type, type Static } from "@sinclair/typebox";
import { TOKEN_NAME_MAX_LENGTH, SCOPE_NAME_MAX_LENGTH, SCOPES_MAX_ITEMS } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the token routes take (docs/architecture.md "Input models"): each limit once, the route
 * schema built from them, the service's input type from the schema.
 */

export const NewToken = Type.Object({
  name: Type.String({ maxLength: TOKEN_NAME_MAX_LENGTH }),
  // Which scopes are known, and that at least one is named, is judged by cleanScopes (tokens.ts),
  // so the 400 names the scope at fault (docs/product.md §6).
  scopes: Type.Optional(Type.Array(Type.String({ maxLength: SCOPE_NAME_MAX_LENGTH }), { maxItems: SCOPES_MAX_ITEMS })),
});
export type NewToken = Static<typeof NewToken>;
