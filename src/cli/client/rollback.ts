import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { tokenProject } from "./project.ts";
import { releaseByRef } from "./release-ref.ts";

/**
 * `phrasebook rollback --to TAG|ID --tag NEW_TAG [--name NAME]` (docs/releases.md "Roll back"):
 * republishes an earlier release as a new one, so `latest` serves its files at once.
 */
export async function runRollback(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`rollback takes no FILE (got "${args.words[1]}")`, 1);
  const to = args.flags["--to"]?.trim();
  const tag = args.flags["--tag"]?.trim();
  if (!to) throw new CliError("rollback needs --to, the tag or id of the release to go back to, e.g. --to v1.3.0", 1);
  if (!tag) throw new CliError("rollback needs --tag, the new release's tag, e.g. --tag v1.3.0-rollback", 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)));
  const project = await tokenProject(client, "rollback");
  const source = await releaseByRef(client, project.id, to, `rollback --to ${to}`);
  const name = args.flags["--name"]?.trim() || `Roll back to ${source.tag}`;
  const made = await client.dashboard<{ id: string; tag: string; languages?: unknown[] }>(`rollback --to ${to}`, "POST", `/projects/${project.id}/releases/${source.id}/republish`, {
    json: JSON.stringify({ name, tag }),
  });
  await print(`republished ${source.tag} (${source.id}) as ${made.id}, tag ${made.tag}, ${made.languages?.length ?? 0} language(s): latest serves it now\n`);
  return 0;
}
