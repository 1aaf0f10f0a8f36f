/**
 * Single sign-on found its user by email alone, lower-cased with `toLowerCase()`, and never kept
 * who the provider said the person was (`sub`). A provider user whose verified email is
 * `\u212Aadmin@x.test` (the Kelvin sign, which lower-cases to an ASCII `k`) signed in as the
 * break-glass admin `kadmin@x.test`. An account is now bound to its provider's issuer and `sub` at
 * its first sign-in and found by them after; an email links an account only while it has no
 * identity at that provider, and emails are compared with no Unicode fold (docs/dashboard-api.md
 * "Single sign-on", docs/deploy.md "Single sign-on"). With the real provider on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser, normaliseEmail } from "../../src/accounts/users.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { TestAccount, TestProvider } from "../helpers/oidc-provider.ts";
import { auditRows, me, oidcEnv, people, providerFor, signIn } from "../accounts/oidc-world.ts";

const KELVIN = "\u212A";
const accounts: Record<string, TestAccount> = {
  ...people(),
  kelvin: { email: `${KELVIN}admin@x.test`, email_verified: true, name: "Not The Admin", groups: ["staff"] },
  kadmin: { email: "KAdmin@X.test", email_verified: true, name: "The Admin At The Provider", groups: ["staff"] },
  carol: { email: "carol@example.test", email_verified: true, name: "Carol", groups: ["staff"] },
  newcomer: { email: "someone@example.test", email_verified: true, name: "Newcomer", groups: ["staff"] },
};

let provider: TestProvider;
beforeAll(async () => {
  provider = await providerFor(accounts);
});
afterAll(() => provider?.stop());

const env = () => oidcEnv(provider, { PHRASEBOOK_OIDC_ALLOWED_DOMAINS: "x.test,example.test", PHRASEBOOK_OIDC_ADMIN_GROUPS: "" });
const identities = (t: TestApp) => t.query<{ email: string; issuer: string; subject: string }>("SELECT u.email, i.issuer, i.subject FROM user_identities i JOIN users u ON u.id = i.user_id ORDER BY u.id");

async function withBreakGlassAdmin(body: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await testApp({ env: env() });
  try {
    await createUser(t.deps.db, t.deps.clock, { email: "kadmin@x.test", name: "Break Glass", password: "break-glass-password", role: "admin" }, { breakGlass: true });
    await body(t);
  } finally {
    await t.close();
  }
}

describe("an email that a Unicode fold makes another account's", () => {
  test("a verified \\u212Aadmin@x.test does not sign in as kadmin@x.test", () =>
    withBreakGlassAdmin(async (t) => {
      const out = await signIn(t, "kelvin");
      // It is another person: a user of their own (a member), never the break-glass admin.
      expect(out.session).not.toBeNull();
      const who = (await me(t, out.session!)).user;
      expect(who.email).toBe(`${KELVIN}admin@x.test`);
      expect(who.email).not.toBe("kadmin@x.test");
      expect(who.role).toBe("member");
      expect(t.query("SELECT email, role, break_glass FROM users WHERE email = 'kadmin@x.test'")).toEqual([{ email: "kadmin@x.test", role: "admin", break_glass: 1 }]);
      expect(identities(t).map((i) => i.email)).toEqual([`${KELVIN}admin@x.test`]);
    }));

  test("the same admin's address in other ASCII letter cases links (and binds) to it", () =>
    withBreakGlassAdmin(async (t) => {
      const out = await signIn(t, "kadmin");
      expect((await me(t, out.session!)).user.email).toBe("kadmin@x.test");
      expect(identities(t)).toEqual([{ email: "kadmin@x.test", issuer: provider.issuer, subject: "kadmin" }]);
      const linked = auditRows(t).find((r) => r.action === "user_changed")!;
      expect(JSON.parse(linked.details)).toMatchObject({ identity_linked: { issuer: provider.issuer, subject: "kadmin" } });
    }));

  test("addresses are compared after lower-casing ASCII letters only: no Unicode case fold or normalisation", () => {
    expect(normaliseEmail(" Ada@Example.TEST ")).toBe("ada@example.test");
    for (const [given, kept] of [
      [`${KELVIN}admin@x.test`, `${KELVIN}admin@x.test`], // Kelvin sign: toLowerCase and NFC make it "k"
      ["\u212Bngstrom@x.test", "\u212Bngstrom@x.test"], // Angstrom sign: NFC makes it "Å"
      ["\u0130nci@x.test", "\u0130nci@x.test"], // dotted capital I: toLowerCase makes it "i̇"
      ["\u017Fam@x.test", "\u017Fam@x.test"], // long s: case folding makes it "s"
      ["KAdmin@\u212A.test", `kadmin@${KELVIN}.test`], // the domain too
    ]) {
      expect(normaliseEmail(given!)).toBe(kept!);
    }
  });
});

describe("an account is bound to the provider's issuer and sub", () => {
  test("a person whose email changed at the provider still signs in as their account", () =>
    withBreakGlassAdmin(async (t) => {
      const bob = accounts.bob!;
      try {
        const first = await signIn(t, "bob");
        const id = (await me(t, first.session!)).user.id;
        bob.email = "robert@example.test";
        const second = await signIn(t, "bob");
        expect((await me(t, second.session!)).user.id).toBe(id);
        expect(t.query("SELECT count(*) AS n FROM users WHERE email = 'robert@example.test'")).toEqual([{ n: 0 }]);
      } finally {
        bob.email = "bob@example.test";
      }
    }));

  test("an email the provider gave to another person does not reach the account of the first", () =>
    withBreakGlassAdmin(async (t) => {
      const carol = accounts.carol!;
      const newcomer = accounts.newcomer!;
      try {
        const first = await signIn(t, "carol");
        expect(first.session).not.toBeNull();
        // Carol leaves; the provider gives her address to someone else (another sub).
        newcomer.email = carol.email;
        const taken = await signIn(t, "newcomer");
        expect(taken.session).toBeNull();
        expect(taken.ssoCode).toBe("identity");
        expect(identities(t)).toEqual([{ email: "carol@example.test", issuer: provider.issuer, subject: "carol" }]);
        const failed = auditRows(t).filter((r) => r.action === "sign_in_failed").at(-1)!;
        expect(failed.target_name).toBe("carol@example.test");
      } finally {
        newcomer.email = "someone@example.test";
      }
    }));

  test("deleting a user removes their identity: the person signs in as a new user", () =>
    withBreakGlassAdmin(async (t) => {
      const first = await signIn(t, "carol");
      const id = (await me(t, first.session!)).user.id;
      const admin = await t.login("kadmin@x.test", "break-glass-password");
      expect((await admin.delete(`/users/${id}`)).status).toBe(204);
      expect(identities(t)).toEqual([]);
      const again = await signIn(t, "carol");
      expect((await me(t, again.session!)).user.id).not.toBe(id);
    }));
});
