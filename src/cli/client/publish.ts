import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { PULL_FORMATS } from "./formats.ts";
import { print } from "../output.ts";
import { tokenProject } from "./project.ts";

interface PublishedRelease {
  id: string;
  name: string;
  tag: string;
  slug: string;
  languages: { code: string; download_urls: Record<string, string> }[];
}

/** The `latest` form of a pinned CDN URL (docs/interface.md §4.5): the release slug's place says latest. */
export function latestUrl(pinned: string, releaseSlug: string): string {
  return pinned.replace(`/r/${releaseSlug}/`, "/r/latest/");
}

/** `phrasebook publish --name NAME --tag TAG` (docs/product.md §6). */
export async function runPublish(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`publish takes no FILE (got "${args.words[1]}")`, 1);
  const name = args.flags["--name"]?.trim();
  const tag = args.flags["--tag"]?.trim();
  if (!name) throw new CliError('publish needs --name, e.g. --name "Spring update"', 1);
  if (!tag) throw new CliError("publish needs --tag, e.g. --tag v1.4.0", 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)));
  const project = await tokenProject(client, "publish");
  const draft = await client.dashboard<{ id: string }>(`publish ${tag}`, "POST", `/projects/${project.id}/releases`, { json: JSON.stringify({ name, tag }) });
  let release: PublishedRelease;
  try {
    release = await client.dashboard<PublishedRelease>(`publish ${tag}`, "POST", `/projects/${project.id}/releases/${draft.id}/publish`, { json: "{}" });
  } catch (err) {
    if (err instanceof CliError) throw new CliError(`${err.message}; the draft ${draft.id} stays, to publish or delete in the dashboard`, err.exitCode);
    throw err;
  }
  const lines = [`published ${release.id}: "${release.name}", tag ${release.tag}, ${release.languages.length} language(s)`, "latest URLs (they follow the newest published release):"];
  for (const language of release.languages) {
    for (const format of PULL_FORMATS) {
      const pinned = language.download_urls[format];
      if (pinned) lines.push(`  ${latestUrl(pinned, release.slug)}`);
    }
  }
  await print(lines.join("\n") + "\n");
  return 0;
}
