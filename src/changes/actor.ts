/**
 * Who made a change: a signed-in user or an API token (docs/product.md §6, §8). The history keeps
 * the name it had then, so deleting the user or the token leaves the record readable.
 */
export interface Actor {
  kind: "user" | "token";
  /** The user's or token's public id (`usr_...`, `tok_...`). */
  publicId: string;
  name: string;
}

/** One key per user or token, for limits counted per caller (docs/publishing.md §6 "Limits"). */
export function actorKey(actor: Actor): string {
  return `${actor.kind}:${actor.publicId}`;
}
