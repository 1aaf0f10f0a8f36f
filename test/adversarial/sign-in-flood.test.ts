/**
 * Sign-ins under way were a map in the server's memory, 10,000 at most, the oldest pushed out
 * first, and `/oidc/start` needs no one to be signed in: 10,050 starts, 50 at a time, made every
 * sign-in under way fail ("expired or already used") for everyone. A sign-in under way now lives
 * in its own browser's cookie, sealed by the server (docs/dashboard-api.md "Single sign-on"):
 * nothing is kept on the server, so no number of starts reaches anyone else's, and a sign-in
 * started before a restart finishes after it. With the real provider on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock, ORIGIN, testApp, testDir } from "../helpers/app.ts";
import { signInAt, type TestProvider } from "../helpers/oidc-provider.ts";
import { callback, me, oidcEnv, outcome, people, providerFor, start } from "../accounts/oidc-world.ts";

const STARTS = 10_050;
const AT_ONCE = 50;

let provider: TestProvider;
beforeAll(async () => {
  provider = await providerFor(people());
});
afterAll(() => provider?.stop());

describe("starting sign-ins cannot end anyone's sign-in under way", () => {
  test(`${STARTS.toLocaleString("en")} starts, ${AT_ONCE} at a time, then a sign-in started before them completes`, async () => {
    const t = await testApp({ env: oidcEnv(provider) });
    try {
      const bob = await start(t, "/dashboard/projects");
      for (let sent = 0; sent < STARTS; sent += AT_ONCE) {
        const replies = await Promise.all(Array.from({ length: Math.min(AT_ONCE, STARTS - sent) }, () => t.fetch("/dashboard/api/oidc/start")));
        for (const r of replies) expect(r.status).toBe(302);
      }
      const back = await signInAt(bob.authorizationUrl.href, "bob");
      const out = await outcome(await callback(t, back, bob.cookie));
      expect(out.ssoError).toBeNull();
      expect(out.location).toBe("/dashboard/projects");
      expect((await me(t, out.session!)).user.email).toBe("bob@example.test");
    } finally {
      await t.close();
    }
  }, 180_000);

  test("a sign-in started before the server restarts completes after it: nothing of it was in the server's memory", async () => {
    const dataDir = testDir();
    const first = await testApp({ env: oidcEnv(provider), dataDir });
    const bob = await start(first, "/dashboard/users");
    await first.close();
    const second = await testApp({ env: oidcEnv(provider), dataDir });
    try {
      const back = await signInAt(bob.authorizationUrl.href, "bob");
      const out = await outcome(await callback(second, back, bob.cookie));
      expect(out.ssoError).toBeNull();
      expect(out.location).toBe("/dashboard/users");
      expect(out.session).not.toBeNull();
    } finally {
      await second.close();
    }
  });

  test("a cookie changed by one character, or sealed by another server, opens to nothing", async () => {
    const t = await testApp({ env: oidcEnv(provider) });
    const elsewhere = await testApp({ env: oidcEnv(provider) });
    try {
      const bob = await start(t);
      const back = await signInAt(bob.authorizationUrl.href, "bob");
      const [name, value] = bob.cookie.split("=") as [string, string];
      const flipped = `${name}=${value.slice(0, 40)}${value[40] === "A" ? "B" : "A"}${value.slice(41)}`;
      expect((await outcome(await callback(t, back, flipped))).ssoCode).toBe("expired");
      // The same sign-in, taken to a server with a key of its own.
      expect((await outcome(await callback(elsewhere, back, bob.cookie))).ssoCode).toBe("expired");
      // And it still completes where it began.
      expect((await outcome(await callback(t, back, bob.cookie))).session).not.toBeNull();
      expect(t.query("SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'bob@example.test'")).toEqual([{ n: 1 }]);
    } finally {
      await t.close();
      await elsewhere.close();
    }
  });

  test("a sign-in under way expires after 10 minutes, by the server's clock, whatever the cookie's Max-Age", async () => {
    const t = await testApp({ env: oidcEnv(provider) });
    try {
      const bob = await start(t);
      const back = await signInAt(bob.authorizationUrl.href, "bob");
      (t.clock as ManualClock).advance(10 * 60_000);
      const res = await callback(t, back, bob.cookie);
      expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard/login?sso_error=expired`);
    } finally {
      await t.close();
    }
  });
});
