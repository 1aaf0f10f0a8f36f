import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { HttpRefusal, PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { PULL_FORMATS } from "./formats.ts";
import { print } from "../output.ts";
import { problemLines, type ProblemLine } from "./problems.ts";
import { tokenProject } from "./project.ts";

/** The scope `publish` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "publish";

interface ReleaseRow {
  id: string;
  name: string;
  tag: string;
  status: "draft" | "published";
}

interface PublishedRelease extends ReleaseRow {
  slug: string;
  languages: { code: string; download_urls: Record<string, string> }[];
}

/** The `latest` form of a pinned CDN URL (docs/interface.md §4.5): the release slug's place says latest. */
export function latestUrl(pinned: string, releaseSlug: string): string {
  return pinned.replace(`/r/${releaseSlug}/`, "/r/latest/");
}

function describe(release: PublishedRelease, verb: string): string {
  const languages = Array.isArray(release.languages) ? release.languages : [];
  const lines = [`${verb} ${release.id}: "${release.name}", tag ${release.tag}, ${languages.length} language(s)`, "latest URLs (they follow the newest published release):"];
  for (const language of languages) {
    for (const format of PULL_FORMATS) {
      const pinned = language.download_urls?.[format];
      if (typeof pinned === "string") lines.push(`  ${latestUrl(pinned, release.slug)}`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * `phrasebook publish --name NAME --tag TAG` (docs/product.md §6), safe to re-run (docs/automation.md
 * "Re-running a pipeline"): a draft with the tag is published rather than a second one made, and a
 * release already published with the tag is printed, exit 0.
 */
export async function runPublish(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`publish takes no FILE (got "${args.words[1]}")`, 1);
  const name = args.flags["--name"]?.trim();
  const tag = args.flags["--tag"]?.trim();
  if (!name) throw new CliError('publish needs --name, e.g. --name "Spring update"', 1);
  if (!tag) throw new CliError("publish needs --tag, e.g. --tag v1.4.0", 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), SCOPE);
  const project = await tokenProject(client, "publish");
  const base = `/projects/${project.id}/releases`;
  const { items } = await client.dashboard<{ items: ReleaseRow[] }>(`publish ${tag}`, "GET", base);
  const existing = Array.isArray(items) ? items.find((r) => r?.tag === tag) : undefined;
  if (existing?.status === "published") {
    const release = await client.dashboard<PublishedRelease>(`publish ${tag}`, "GET", `${base}/${encodeURIComponent(existing.id)}`);
    await print(describe(release, "already published"));
    return 0;
  }
  const draft = existing ?? (await client.dashboard<ReleaseRow>(`publish ${tag}`, "POST", base, { json: JSON.stringify({ name, tag }) }));
  let release: PublishedRelease;
  try {
    release = await client.dashboard<PublishedRelease>(`publish ${tag}`, "POST", `${base}/${encodeURIComponent(draft.id)}/publish`, { json: "{}" });
  } catch (err) {
    if (err instanceof HttpRefusal && Array.isArray(err.body.problems)) {
      const problems = err.body.problems as ProblemLine[];
      const total = typeof err.body.error_count === "number" ? err.body.error_count : problems.length;
      await print(problemLines(problems, total).join("\n") + "\n");
    }
    if (err instanceof CliError) throw new CliError(`${err.message}; the draft ${draft.id} stays, and publish --tag ${tag} publishes it once fixed`, err.exitCode);
    throw err;
  }
  await print(describe(release, "published"));
  return 0;
}
