import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { tokenProject } from "./project.ts";
import { releaseByRef } from "./release-ref.ts";

/** The scope `promote` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "publish";

interface ChannelAnswer {
  name: string;
  release_id: string;
  urls: Record<string, Record<string, string>>;
}

/** `phrasebook promote --channel NAME --release TAG|ID` (docs/releases.md "Channels"): points the channel at the release. */
export async function runPromote(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`promote takes no FILE (got "${args.words[1]}")`, 1);
  const channel = args.flags["--channel"]?.trim();
  const which = args.flags["--release"]?.trim();
  if (!channel) throw new CliError("promote needs --channel, e.g. --channel production", 1);
  if (!which) throw new CliError("promote needs --release, the tag or id of a published release", 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), SCOPE);
  const project = await tokenProject(client, "promote");
  const release = await releaseByRef(client, project.id, which, `promote --release ${which}`);
  const moved = await client.dashboard<ChannelAnswer>(`promote --channel ${channel}`, "PUT", `/projects/${project.id}/channels/${encodeURIComponent(channel)}`, {
    json: JSON.stringify({ release_id: release.id }),
  });
  const lines = [`channel ${moved.name} now serves ${release.tag} (${release.id}):`];
  for (const byFormat of Object.values(moved.urls)) for (const url of Object.values(byFormat)) lines.push(`  ${url}`);
  await print(lines.join("\n") + "\n");
  return 0;
}
