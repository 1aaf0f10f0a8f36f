/**
 * Where a single sign-on returns to (`next`, docs/dashboard-api.md "Single sign-on") must be a
 * path of this server. The check refused `//evil`, `/\evil` and other origins as written, but then
 * answered the path the URL parser made of `next`, and dot segments collapse into a leading `//`:
 * `next=/.//evil.example` came back as `Location: //evil.example`, which a browser follows to
 * another site (an open redirect, through a real sign-in at the provider). A `next` whose path
 * resolves so now lands on the dashboard like any other origin.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ORIGIN, testApp } from "../helpers/app.ts";
import type { TestProvider } from "../helpers/oidc-provider.ts";
import { oidcEnv, people, providerFor, signIn } from "../accounts/oidc-world.ts";

let provider: TestProvider;
beforeAll(async () => {
  provider = await providerFor(people());
});
afterAll(async () => {
  await provider?.stop();
});

const TRICKS = ["/.//evil.example", "/x/..//evil.example/path", "/%2e//evil.example", "/a/../..//evil.example/x?y=1", "/./\\evil.example", "/.%2F/evil.example"];

test("a next whose dots resolve to another host lands on /dashboard, after a real sign-in", async () => {
  const t = await testApp({ env: oidcEnv(provider) });
  try {
    for (const next of TRICKS) {
      const out = await signIn(t, "bob", next);
      expect(out.status).toBe(302);
      expect(out.session).not.toBeNull();
      expect(new URL(out.location, ORIGIN).origin).toBe(ORIGIN);
      expect(out.location.startsWith("//")).toBe(false);
    }
    // A path of this server still returns there.
    expect((await signIn(t, "bob", "/dashboard/projects?x=1")).location).toBe("/dashboard/projects?x=1");
  } finally {
    await t.close();
  }
}, 120_000);
