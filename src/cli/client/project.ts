import type { ProjectView } from "../../authoring/projects.ts";
import { CliError } from "../../common/errors.ts";
import type { PhrasebookClient } from "./api.ts";

/**
 * The token's project: a write or publish token lists only its own project (docs/product.md §6),
 * so the client never needs its id.
 */
export async function tokenProject(client: PhrasebookClient, what: string): Promise<ProjectView> {
  const { items } = await client.dashboard<{ items?: ProjectView[] }>(what, "GET", "/projects");
  const project = items?.[0];
  if (!project || items.length !== 1) throw new CliError(`${what}: the server listed ${items?.length ?? 0} projects for this token, not one`, 2);
  return project;
}
