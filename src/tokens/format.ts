/**
 * What an API token looks like (docs/interface.md §5, docs/product.md §2, §6): `pb_` + 43 base62
 * characters (256 bits). The prefix lets secret scanners recognise a leaked one. On its own, with
 * nothing to import, so the command-line client checks a token's shape without loading the
 * server's storage (docs/architecture.md "Start-up").
 */
export const TOKEN_PREFIX = "pb_";
export const TOKEN_RANDOM_LENGTH = 43;
export const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_RANDOM_LENGTH}}$`);
