import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { tokenProject } from "./project.ts";
import { findRelease, listReleases, type ReleaseItem } from "./release-ref.ts";

/** The scope `rollback` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "publish";

/**
 * The release to go back to, and the release a run before this one made with the same tag from
 * it: a re-run after a success prints that one and exits 0, as `publish --tag` does
 * (docs/automation.md "rollback"); a tag taken otherwise is left to the server's 409.
 */
async function rollbackReleases(client: PhrasebookClient, projectId: string, to: string, tag: string): Promise<{ source: ReleaseItem; again?: ReleaseItem }> {
  const items = await listReleases(client, projectId, `rollback --to ${to}`);
  const source = findRelease(items, to, `rollback --to ${to}`);
  const made = items.find((r) => r.tag === tag);
  const again = made && made.status === "published" && made.republished_from === source.id ? made : undefined;
  return again ? { source, again } : { source };
}

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
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), SCOPE);
  const project = await tokenProject(client, "rollback");
  const { source, again } = await rollbackReleases(client, project.id, to, tag);
  if (again) {
    await print(`already republished ${source.tag} (${source.id}) as ${again.id}, tag ${again.tag}\n`);
    return 0;
  }
  const name = args.flags["--name"]?.trim() || `Roll back to ${source.tag}`;
  const made = await client.dashboard<{ id: string; tag: string; languages?: unknown[] }>(`rollback --to ${to}`, "POST", `/projects/${project.id}/releases/${source.id}/republish`, {
    json: JSON.stringify({ name, tag }),
  });
  await print(`republished ${source.tag} (${source.id}) as ${made.id}, tag ${made.tag}, ${made.languages?.length ?? 0} language(s): latest serves it now\n`);
  return 0;
}
