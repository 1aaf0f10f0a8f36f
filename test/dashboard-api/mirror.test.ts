/**
 * `GET /dashboard/api/mirror` (docs/dashboard-api.md "Mirror"): the mirror's queue for global
 * admins, a 404 while no mirror is configured. What the queue holds while the store fails, and
 * how it empties, is test/targets/mirror.test.ts's; the credentials never appear in the answer.
 */
import { expect } from "bun:test";
import type { Scenario } from "../helpers/scenario.ts";
import { scenarios } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const SECRET = "mirror-secret-never-shown";
/** A mirror whose store nothing answers (the world's server never starts its targets anyway). */
const MIRROR = {
  PHRASEBOOK_S3_ENDPOINT: "http://127.0.0.1:9",
  PHRASEBOOK_S3_BUCKET: "cdn-files",
  PHRASEBOOK_S3_ACCESS_KEY_ID: "mirror-key-id",
  PHRASEBOOK_S3_SECRET_ACCESS_KEY: SECRET,
};

const rows: Scenario[] = [
  {
    name: "an admin reads the queue: nothing waiting, nothing failing, nothing copied yet",
    as: "admin",
    method: "GET",
    url: "/mirror",
    status: 200,
    notContains: [SECRET, "mirror-key-id"],
    after: (_ctx, body) => expect(body).toEqual({ pending: 0, failed: [], last_copied_at: null }),
  },
  { name: "a member is 403", as: "member", method: "GET", url: "/mirror", status: 403, contains: ["admin"] },
  { name: "no session is 401", as: "anonymous", method: "GET", url: "/mirror", status: 401 },
];

scenarios("GET /mirror with a mirror", standardWorld, rows, { env: MIRROR });
coverage("mirror", rows);

scenarios("GET /mirror without a mirror", standardWorld, [
  { name: "404 naming the setting that turns it on", as: "admin", method: "GET", url: "/mirror", status: 404, contains: ["no mirror is configured (PHRASEBOOK_S3_BUCKET is unset)"] },
]);
