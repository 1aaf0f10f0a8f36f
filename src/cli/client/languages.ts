import type { LanguageView } from "../../authoring/languages.ts";
import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { safeLanguageCode } from "./patterns.ts";
import { tokenProject } from "./project.ts";

/**
 * `phrasebook languages [list]` and `phrasebook languages add CODE...` (docs/automation.md
 * "languages"): a CI job or a newcomer adds a language without a browser. Adding needs the write
 * scope; a language the project has already is said and passed over, so a re-run exits 0.
 */
export async function runLanguages(args: ParsedArgs): Promise<number> {
  const [, sub = "list", ...codes] = args.words;
  if (sub !== "list" && sub !== "add") throw new CliError(`languages ${sub}: the subcommands are list and add (see phrasebook languages --help)`, 1);
  if (sub === "list" && codes.length > 0) throw new CliError(`languages list takes no argument (got "${codes[0]}")`, 1);
  if (sub === "add" && codes.length === 0) throw new CliError("languages add needs one or more language codes, e.g. languages add fr pt-BR", 1);
  for (const code of codes) safeLanguageCode(code, 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), sub === "add" ? "write" : "write or publish");
  const project = await tokenProject(client, `languages ${sub}`);
  const path = `/projects/${project.id}/languages`;
  const { items } = await client.dashboard<{ items: LanguageView[] }>(`languages ${sub}`, "GET", path);
  if (sub === "list") {
    const width = Math.max(2, ...items.map((l) => l.code.length));
    await print(items.map((l) => `${l.code.padEnd(width)}  ${l.name}${l.is_base_language ? "  (base)" : ""}`).join("\n") + "\n");
    return 0;
  }
  // One line as each is done, so a refusal half-way leaves the languages already added said.
  for (const code of new Set(codes)) {
    const have = items.find((l) => l.code.toLowerCase() === code.toLowerCase());
    if (have) {
      await print(`${have.code}: already a language of ${project.name}\n`);
      continue;
    }
    const added = await client.dashboard<LanguageView>(`languages add ${code}`, "POST", path, { json: JSON.stringify({ code }) });
    items.push(added);
    await print(`added language ${added.code} (${added.name})\n`);
  }
  return 0;
}
