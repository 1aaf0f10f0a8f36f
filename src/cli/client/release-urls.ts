import { CliError } from "../../common/errors.ts";
import { pathUnderCdn } from "../../delivery/protocol/manifest.ts";
import { PAGE_SIZE_MAX } from "../../public-api/limits.ts";
import type { PhrasebookClient } from "./api.ts";
import { RELEASE_PAGES_MAX } from "./limits.ts";

/**
 * Where a project's files are, from the public API (a `read` token): a published release's
 * download URL names the CDN's address, the project's slug and the release's slug
 * (docs/delivery.md "Verification").
 */

interface Release {
  id: string;
  tag: string;
  languages?: { download_urls?: Record<string, string> }[];
}

const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;

/** The release `which` names (latest, an id, a tag), with one of its download URLs and its slug. */
export async function latestOrTagged(client: PhrasebookClient, which: string, what: string): Promise<{ url: string; releaseSlug: string }> {
  let id: string | undefined;
  if (which === "latest") {
    const { items } = await client.publicApi<{ items: Release[] }>(what, "/releases?sort=published_at&order=desc&page_size=1");
    id = Array.isArray(items) ? items[0]?.id : undefined;
    if (!id) throw new CliError(`${what}: the project has no published release yet`, 2);
  } else if (RELEASE_ID.test(which)) id = which;
  else {
    for (let page = 1; page <= RELEASE_PAGES_MAX && id === undefined; page++) {
      const list = await client.publicApi<{ items: Release[]; page_info: { total_pages: number } }>(what, `/releases?search=${encodeURIComponent(which)}&page_size=${PAGE_SIZE_MAX}&page=${page}`);
      if (!Array.isArray(list.items)) throw new CliError(`${what}: the server's release list has no items`, 2);
      id = list.items.find((r) => r.tag === which)?.id;
      if (id === undefined && (list.items.length === 0 || !(page < Number(list.page_info?.total_pages)))) throw new CliError(`${what}: no published release has the tag ${which}`, 2);
    }
    if (id === undefined) throw new CliError(`${what}: not found in the first ${RELEASE_PAGES_MAX} pages of releases; give the release's id instead`, 2);
  }
  const detail = await client.publicApi<Release>(what, `/releases/${encodeURIComponent(id)}`);
  const url = Object.values(detail.languages?.[0]?.download_urls ?? {})[0];
  const slug = url ? /\/p\/[0-9A-Za-z]{16}\/r\/([0-9A-Za-z]{16})\//.exec(url)?.[1] : undefined;
  if (!url || !slug) throw new CliError(`${what}: the release ${detail.tag ?? id} names no file to find the CDN by`, 2);
  return { url, releaseSlug: slug };
}

/** The CDN's address and the project's slug, from a file URL the server named (on an allowed origin). */
export function cdnOfUrl(client: PhrasebookClient, what: string, url: string): { cdn: string; projectSlug: string } {
  const allowed = client.allowedUrl(what, url).href;
  const path = pathUnderCdn(allowed);
  const slug = /^p\/([0-9A-Za-z]{16})\//.exec(path ?? "")?.[1];
  if (!path || !slug) throw new CliError(`${what}: the server named ${allowed.slice(0, 200)}, which is no CDN file URL`, 2);
  return { cdn: allowed.slice(0, allowed.length - path.length - 1), projectSlug: slug };
}
