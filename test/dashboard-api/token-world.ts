/**
 * The standard world (world.ts) and API tokens with each scope (product §6), for the tables that
 * send requests as `token:read`, `token:write`, `token:publish` and `token:other` (a token of the
 * project "Other" with every scope), and the channel `staging` on the release "Launch".
 */
import type { TestApp } from "../helpers/app.ts";
import type { TokenWho, World } from "../helpers/scenario.ts";
import { standardWorld } from "./world.ts";

const TOKENS: [who: TokenWho, name: string, project: "pid" | "otherPid", scopes: string[]][] = [
  ["token:read", "reader", "pid", ["read"]],
  ["token:write", "writer", "pid", ["write"]],
  ["token:publish", "publisher", "pid", ["publish"]],
  ["token:other", "other project", "otherPid", ["read", "write", "publish"]],
];

export async function tokenWorld(t: TestApp): Promise<World> {
  const world = await standardWorld(t);
  const admin = t.client();
  admin.cookie = world.sessions.admin!.cookie;
  admin.csrf = world.sessions.admin!.csrf;
  const tokens: World["tokens"] = {};
  const ids = { ...world.ids };
  for (const [who, name, project, scopes] of TOKENS) {
    const made = await admin.post(`/projects/${world.ids[project]}/tokens`, { name, scopes });
    if (made.status !== 201) throw new Error(`token ${name}: ${made.status} ${JSON.stringify(made.body)}`);
    tokens[who] = made.body.token;
    // Used once while preparing, so last_used_at is already now and the rows (at the same time on
    // the clock) write nothing but what their request does.
    await t.fetch("/dashboard/api/projects", { headers: { authorization: `Bearer ${made.body.token}` } });
    ids[`${name.replace(/ /g, "")}TokenId`] = made.body.id;
  }
  // A channel for the channel routes (docs/releases.md "Channels").
  const channel = await admin.put(`/projects/${world.ids.pid}/channels/staging`, { release_id: world.ids.releaseId });
  if (channel.status !== 201) throw new Error(`channel: ${channel.status} ${JSON.stringify(channel.body)}`);
  return { ...world, ids, tokens };
}
