import { PROBLEM_LINES_MAX } from "./limits.ts";

/** A message-check finding as the server lists it (docs/product.md §7). */
export interface ProblemLine {
  key: string;
  language_code: string;
  code: string;
  message: string;
}

/**
 * One line per problem, `<key> [<language>] <code>: <message>`, the first PROBLEM_LINES_MAX, then
 * how many more (docs/automation.md "Problems, per key"): a CI log names what to fix. `total` is
 * how many there are, when the server counted more than it listed.
 */
export function problemLines(items: readonly ProblemLine[], total = items.length): string[] {
  const lines = items.slice(0, PROBLEM_LINES_MAX).map((p) => `  ${String(p.key).slice(0, 200)} [${p.language_code}] ${p.code}: ${String(p.message).slice(0, 300)}`);
  const more = Math.max(total, items.length) - lines.length;
  if (more > 0) lines.push(`  ... and ${more} more problem${more === 1 ? "" : "s"} (phrasebook status, or the dashboard's problem list)`);
  return lines;
}
