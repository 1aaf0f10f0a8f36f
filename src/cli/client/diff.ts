import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { tokenProject } from "./project.ts";
import { newestDraft, releaseByRef } from "./release-ref.ts";

/** The scope `diff` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "write or publish";

interface DiffAnswer {
  added: string[];
  removed: string[];
  changed: { key: string; language_code: string; before: string | null; after: string | null }[];
  languages_added: string[];
  languages_removed: string[];
  truncated: boolean;
  counts: { added: number; removed: number; changed: number };
}

const shown = (value: string | null) => (value === null ? "(none)" : JSON.stringify(value));

/**
 * `phrasebook diff [--release TAG|ID] [--against TAG|ID]` (docs/releases.md "Diff"): what the
 * release (default: the newest draft, i.e. what publishing it would change) changes against
 * `--against` (default: latest). One `+ key`, `- key` or `~ key [language]: before -> after` line
 * each, then the counts.
 */
export async function runDiff(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`diff takes no FILE (got "${args.words[1]}")`, 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), SCOPE);
  const project = await tokenProject(client, "diff");
  const which = args.flags["--release"]?.trim();
  const release = which ? await releaseByRef(client, project.id, which, `diff --release ${which}`) : await newestDraft(client, project.id, "diff");
  if (!release) throw new CliError("diff: the project has no draft; name a release with --release TAG|ID", 1);
  const againstRef = args.flags["--against"]?.trim();
  const against = againstRef ? (await releaseByRef(client, project.id, againstRef, `diff --against ${againstRef}`)).id : "latest";
  const diff = await client.dashboard<DiffAnswer>(`diff ${release.tag}`, "GET", `/projects/${project.id}/releases/${release.id}/diff?against=${encodeURIComponent(against)}`);
  const lines = [
    ...diff.languages_added.map((c) => `+ language ${c}`),
    ...diff.languages_removed.map((c) => `- language ${c}`),
    ...diff.added.map((k) => `+ ${k}`),
    ...diff.removed.map((k) => `- ${k}`),
    ...diff.changed.map((c) => `~ ${c.key} [${c.language_code}]: ${shown(c.before)} -> ${shown(c.after)}`),
  ];
  if (diff.truncated) lines.push("(lists stop at 1,000 entries each)");
  lines.push(`${release.tag} against ${againstRef ?? "latest"}: ${diff.counts.added} added, ${diff.counts.removed} removed, ${diff.counts.changed} changed`);
  await print(lines.join("\n") + "\n");
  return 0;
}
