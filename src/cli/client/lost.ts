import { CliError } from "../../common/errors.ts";

/**
 * Nothing lost on day one (docs/automation.md "pull": the translations a repository already has):
 * `pull` does not replace a local file when that would drop a translation it holds for a key the
 * release has but has no translation for in that language. A team that starts with translated
 * files and pulls before pushing them, or pulls a release older than its first import, would
 * otherwise see them replaced by nothing.
 */
export interface Loss {
  path: string;
  code: string;
  keys: string[];
}

/** The keys of `local` (key to value, in the file's order) that would be lost. */
export function lostKeys(local: ReadonlyMap<string, string>, translated: (key: string) => boolean, releaseHas: (key: string) => boolean): string[] {
  const lost: string[] = [];
  for (const [key, value] of local) if (value !== "" && !translated(key) && releaseHas(key)) lost.push(key);
  return lost;
}

/** Keys named in the refusal before the rest is counted. */
const KEYS_SHOWN = 5;

/** The one line of the refusal: the first file, its language, how many strings and the first keys; then how many other files. */
export function refusal(losses: readonly Loss[], tag: string): CliError {
  const [first] = losses;
  const n = first!.keys.length;
  const shown = first!.keys.slice(0, KEYS_SHOWN).map((k) => JSON.stringify(k)).join(", ");
  const more = n > KEYS_SHOWN ? `, and ${n - KEYS_SHOWN} more` : "";
  const others = losses.length > 1 ? `; ${losses.length - 1} more file${losses.length === 2 ? "" : "s"} likewise (${losses.slice(1, 4).map((l) => l.path).join(", ")}${losses.length > 4 ? ", ..." : ""})` : "";
  return new CliError(
    `pull: ${first!.path} holds ${n} ${first!.code} string${n === 1 ? "" : "s"} that release ${tag} has no ${first!.code} translation for (${shown}${more}), and pulling would drop ${n === 1 ? "it" : "them"}${others}. ` +
      `Send them first with "phrasebook push --translations" (then publish), or pass --force to replace the files anyway; nothing was written`,
    1,
  );
}
