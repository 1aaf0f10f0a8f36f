import { CliError } from "../../common/errors.ts";
import type { PhrasebookClient } from "./api.ts";

/** A release as the dashboard API lists it (docs/dashboard-api.md). */
export interface ReleaseItem {
  id: string;
  name: string;
  tag: string;
  status: "draft" | "published";
  created_at: string;
  published_at: string | null;
  /** The release it was republished from (docs/releases.md "Roll back"). */
  republished_from?: string;
}

const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;

/**
 * The release of the token's project that `which` names: its id, or its tag exactly. Read through
 * the dashboard API, which a write or publish token may read (docs/product.md §6), so rollback,
 * promote and diff need no read scope besides.
 */
export async function releaseByRef(client: PhrasebookClient, projectId: string, which: string, what: string): Promise<ReleaseItem> {
  return findRelease(await listReleases(client, projectId, what), which, what);
}

/** The project's releases, newest first. */
export async function listReleases(client: PhrasebookClient, projectId: string, what: string): Promise<ReleaseItem[]> {
  const { items } = await client.dashboard<{ items?: ReleaseItem[] }>(what, "GET", `/projects/${projectId}/releases`);
  return Array.isArray(items) ? items : [];
}

/** The release `which` names among `items`: its id, or its tag exactly. */
export function findRelease(items: readonly ReleaseItem[], which: string, what: string): ReleaseItem {
  const found = items.find((r) => (RELEASE_ID.test(which) ? r.id === which : r.tag === which));
  if (!found) throw new CliError(`${what}: no release of the project has the ${RELEASE_ID.test(which) ? "id" : "tag"} ${which}`, 2);
  return found;
}

/** The newest draft of the project (what `diff` compares by default), or undefined. */
export async function newestDraft(client: PhrasebookClient, projectId: string, what: string): Promise<ReleaseItem | undefined> {
  const { items } = await client.dashboard<{ items?: ReleaseItem[] }>(what, "GET", `/projects/${projectId}/releases`);
  return (items ?? []).find((r) => r.status === "draft"); // the list is newest first
}
