import { Elysia } from "elysia";
import { notFound } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import { mirrorStatus } from "../targets/mirror.ts";
import type { DashboardContext } from "./access.ts";

/**
 * The mirror's queue (docs/dashboard-api.md "Mirror"): what waits to be copied to object
 * storage, what keeps failing and why, and the last copy. The whole server's, for admins; 404
 * while no mirror is configured.
 */
export function mirrorRoutes({ targets }: AppDeps, context: DashboardContext) {
  return new Elysia().use(context).get(
    "/mirror",
    () => {
      const status = mirrorStatus(targets);
      if (!status) throw notFound("no mirror is configured (PHRASEBOOK_S3_BUCKET is unset)");
      return status;
    },
    { access: "admin" },
  );
}
