import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { deleteChannel, getChannel, listChannels, moveChannel, rotateChannelSlug } from "../releases/channels.ts";
import { ChannelMove } from "../releases/model.ts";
import type { DashboardContext } from "./access.ts";
import { RELEASE_OPERATIONS_ACCESS as ACCESS } from "./releases.ts";

/** Channels: named pointers at published releases, each with its own CDN path (docs/releases.md "Channels"). */
export function channelRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, settings } = deps;
  const { cdnUrl } = settings;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/channels", ({ project }) => ({ items: listChannels(db, cdnUrl, project) }), { access: ACCESS.readChannels, inProject: true })
    .get("/projects/:pid/channels/:name", ({ project, params }) => getChannel(db, cdnUrl, project, params.name), { access: ACCESS.readChannels, inProject: true })
    .put(
      "/projects/:pid/channels/:name",
      ({ project, params, body, by, status }) => {
        const { created, channel } = moveChannel(deps, cdnUrl, project, params.name, body, by);
        return created ? status(201, channel) : channel;
      },
      { access: ACCESS.moveChannel, inProject: true, body: ChannelMove },
    )
    .post("/projects/:pid/channels/:name/rotate-slug", ({ project, params, by }) => rotateChannelSlug(deps, project, params.name, by), {
      access: ACCESS.rotateChannelSlug,
      inProject: true,
    })
    .delete(
      "/projects/:pid/channels/:name",
      ({ project, params, by, status }) => {
        deleteChannel(deps, project, params.name, by);
        return status(204);
      },
      { access: ACCESS.deleteChannel, inProject: true },
    );
}
