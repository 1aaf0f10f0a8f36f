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
  const all = [...new Set(onceEach(items).map((p) => `  ${String(p.key).slice(0, 200)} [${p.language_code}] ${p.code}: ${String(p.message).slice(0, 300)}`))];
  const lines = all.slice(0, PROBLEM_LINES_MAX);
  // Those the server counted past its list, and those of the list past the lines shown.
  const more = Math.max(total, items.length) - items.length + (all.length - lines.length);
  if (more > 0) lines.push(`  ... and ${more} more problem${more === 1 ? "" : "s"} (phrasebook status, or the dashboard's problem list)`);
  return lines;
}

/** The first placeholder a message quotes (`{name}`), or the one it suggests ("use `{name}`"). */
const quoted = (message: string, suggested: boolean) => (suggested ? /use `([^`]+)`/ : /`([^`]+)`/).exec(String(message))?.[1];

/**
 * One line per problem (docs/automation.md "status"): a placeholder renamed in a translation is found
 * twice by the checks, unknown (`{nmae}` ...; use `{name}`) and missing (`{name}` ... is
 * missing); the unknown one's line says both, so the missing one it names is not printed again.
 */
function onceEach(items: readonly ProblemLine[]): ProblemLine[] {
  const at = (p: ProblemLine, placeholder: string | undefined) => `${p.key}\u0000${p.language_code}\u0000${placeholder}`;
  const suggested = new Set(items.filter((p) => p.code === "placeholder_unknown").map((p) => at(p, quoted(p.message, true))));
  return items.filter((p) => !(p.code === "placeholder_missing" && suggested.has(at(p, quoted(p.message, false)))));
}
