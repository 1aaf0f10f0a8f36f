/**
 * The first-run setup once checked "no user yet" before the slow password hash and inserted after
 * it, so 5 parallel setups made 5 admins. Bursts of setups arrive truly at
 * once (burst.ts) at a fresh server process with no user, in several rounds; exactly one admin may
 * come out of each (docs/dashboard-api.md "Routes beyond product.md §4": `POST /setup` only while
 * no user exists).
 */
import { describe, expect, test } from "bun:test";
import { startServer } from "../helpers/server.ts";
import { burst, jsonRequest, statusCounts } from "./burst.ts";

const NO_ADMIN = { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "", PHRASEBOOK_LOG_REQUESTS: "false" };

describe("dashboard-api.md Routes beyond product.md §4, POST /setup: one first admin, however many setups arrive at once", () => {
  for (const [round, size] of [
    [1, 5],
    [2, 12],
    [3, 25],
  ] as const) {
    test(`round ${round}: ${size} setups at once make exactly one admin; the rest are 409 and sign no one in`, async () => {
      const server = await startServer({ env: NO_ADMIN });
      try {
        const replies = await burst(
          server.port,
          Array.from({ length: size }, (_, i) => jsonRequest("POST", "/dashboard/api/setup", { email: `first${i}@example.test`, name: `First ${i}`, password: `password-${i}-long` })),
        );
        expect(statusCounts(replies), JSON.stringify(replies.map((r) => r.json))).toEqual({ 201: 1, 409: size - 1 });
        for (const r of replies.filter((x) => x.status === 409)) {
          expect(r.json).toEqual({ error: "setup is done: an admin already exists" });
          expect(r.headers["set-cookie"]).toBeUndefined();
        }
        const winner = replies.find((r) => r.status === 201)!;
        const users = server.query<{ email: string; role: string }>("SELECT email, role FROM users");
        expect(users).toEqual([{ email: winner.json.user.email, role: "admin" }]);
        expect(server.query("SELECT user_id FROM sessions").length).toBe(1);
        expect(await (await fetch(`${server.url}/dashboard/api/setup`)).json()).toEqual({ needed: false });
      } finally {
        await server.stop();
      }
    }, 60_000);
  }
});
