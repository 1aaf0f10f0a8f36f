/**
 * Single sign-on against a real OpenID provider (docs/deploy.md and docs/dashboard-api.md "Single sign-on"):
 * the npm `oidc-provider` on loopback, and the in-process app signing people in over HTTP. The
 * browser's walk through the same flow is test/dashboard/sso.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/accounts/users.ts";
import { loadSettings } from "../../src/config/settings.ts";
import type { HttpFetch } from "../../src/deps.ts";
import { ManualClock, ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { newSigningKey, publicKeys, signInAt, type TestProvider } from "../helpers/oidc-provider.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";
import { ADMIN_GROUP, auditRows, callback, CLIENT_SECRET, me, oidcEnv, outcome, people, providerFor, signIn, start } from "./oidc-world.ts";

const accounts = people();
let provider: TestProvider;
beforeAll(async () => {
  provider = await providerFor(accounts);
});
afterAll(async () => {
  await provider?.stop();
});

async function withApp(body: (t: TestApp) => Promise<void>, env: Record<string, string> = {}, fetch?: HttpFetch): Promise<void> {
  const t = await testApp({ env: oidcEnv(provider, env), fetch });
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

const countUsers = (t: TestApp) => t.query<{ n: number }>("SELECT count(*) AS n FROM users")[0]!.n;

describe("signing in with OpenID Connect", () => {
  test("GET /auth-methods offers the provider's button and the password form", () =>
    withApp(async (t) => {
      const res = await t.fetch("/dashboard/api/auth-methods");
      expect(await res.json()).toEqual({ password: true, oidc: { name: "Example SSO", start_url: `${ORIGIN}/dashboard/api/oidc/start` } });
    }));

  test("the start redirects to the provider with the code flow, PKCE S256, state, nonce and the scopes", () =>
    withApp(async (t) => {
      const { authorizationUrl: url } = await start(t);
      expect(url.origin).toBe(provider.issuer);
      const q = url.searchParams;
      expect(q.get("response_type")).toBe("code");
      expect(q.get("client_id")).toBe("phrasebook");
      expect(q.get("redirect_uri")).toBe(`${ORIGIN}/dashboard/api/oidc/callback`);
      expect(q.get("scope")).toBe("openid email profile groups");
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.has("client_secret")).toBe(false);
      // Two starts, two different states and nonces.
      const other = (await start(t)).authorizationUrl.searchParams;
      expect(other.get("state")).not.toBe(q.get("state"));
      expect(other.get("nonce")).not.toBe(q.get("nonce"));
    }));

  test("a first sign-in creates the user (member), signs in for PHRASEBOOK_OIDC_SESSION_HOURS and lands on next", () =>
    withApp(
      async (t) => {
        const before = countUsers(t);
        const out = await signIn(t, "bob", "/dashboard/projects/x/keys?search=a");
        expect(out.status).toBe(302);
        expect(out.location).toBe("/dashboard/projects/x/keys?search=a");
        expect(out.session).toMatch(/^phrasebook_session=[0-9A-Za-z]{43}$/);
        const who = await me(t, out.session!);
        expect(who.user).toMatchObject({ email: "bob@example.test", name: "Bob Builder", role: "member", break_glass: false });
        expect(who.csrf_token).toMatch(/^[0-9A-Za-z]{32}$/);
        expect(countUsers(t)).toBe(before + 1);
        const [session] = t.query<{ created_at: number; expires_at: number; sign_in_method: string }>("SELECT created_at, expires_at, sign_in_method FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'bob@example.test')");
        expect(session!.expires_at - session!.created_at).toBe(5 * 3_600_000);
        expect(session!.sign_in_method).toBe("oidc");
        // The session ends after those hours: the groups are read again at the next sign-in.
        (t.clock as ManualClock).advance(5 * 3_600_000);
        expect((await t.fetch("/dashboard/api/me", { headers: { cookie: out.session! } })).status).toBe(401);
        const log = auditRows(t).map((r) => [r.action, r.actor_name]);
        expect(log).toContainEqual(["user_created", "single sign-on"]);
        expect(log).toContainEqual(["sign_in", "Bob Builder"]);
      },
      { PHRASEBOOK_OIDC_SESSION_HOURS: "5" },
    ));

  test("a person in an admin group is created an admin", () =>
    withApp(async (t) => {
      const out = await signIn(t, "ada");
      expect(out.location).toBe("/dashboard");
      expect((await me(t, out.session!)).user.role).toBe("admin");
    }));

  test("a verified email equal to an existing user's signs in as that user (linked, nothing created)", () =>
    withApp(async (t) => {
      const admin = await t.login();
      const made = await admin.post("/users", { email: "linked@example.test", name: "Linked", password: "password-1", role: "member" });
      const before = countUsers(t);
      const out = await signIn(t, "linked");
      expect((await me(t, out.session!)).user.id).toBe(made.body.id);
      expect(countUsers(t)).toBe(before);
    }));

  test("next must be of this origin: another origin, or one a browser reads as another, lands on /dashboard", () =>
    withApp(async (t) => {
      for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
        const out = await signIn(t, "bob", next);
        expect(out.location).toBe("/dashboard");
      }
    }));

  test("every request to the provider goes through AppDeps.fetch", async () => {
    const seen: string[] = [];
    const recording: HttpFetch = (input, init) => {
      seen.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return fetch(input, init);
    };
    await withApp(
      async (t) => {
        await signIn(t, "bob");
        expect(seen).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks", "/me"]));
      },
      {},
      recording,
    );
  });
});

describe("refusals go back to the login page with one sentence, and create nothing", () => {
  async function refused(t: TestApp, res: Response, sentence: RegExp): Promise<void> {
    const out = await outcome(res);
    expect(out.status).toBe(302);
    // Only a reason code travels in the URL; the page shows its own sentence for it.
    expect(out.location).toMatch(new RegExp(`^${ORIGIN}/dashboard/login\\?sso_error=[a-z_]+$`));
    expect(out.ssoError).toMatch(sentence);
    expect(out.session).toBeNull();
  }

  for (const [who, sentence] of [
    ["eve", /not verified/],
    ["mallory", /domain is not allowed/],
    ["carl", /not in a group that is allowed/],
  ] as const) {
    test(`${who}: ${sentence.source}`, () =>
      withApp(async (t) => {
        const users = countUsers(t);
        const s = await start(t);
        const back = await signInAt(s.authorizationUrl.href, who);
        await refused(t, await callback(t, back, s.cookie), sentence);
        expect(countUsers(t)).toBe(users);
        expect(t.query("SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?", accounts[who]!.email.toLowerCase())).toEqual([]);
        const failed = auditRows(t).filter((r) => r.action === "sign_in_failed");
        expect(failed.length).toBe(1);
        expect(failed[0]!.target_name).toBe(accounts[who]!.email.toLowerCase());
        expect(JSON.parse(failed[0]!.details)).toMatchObject({ method: "oidc" });
      }));
  }

  test("a wrong state is refused, and the code is not spent", () =>
    withApp(async (t) => {
      const s = await start(t);
      const back = await signInAt(s.authorizationUrl.href, "bob");
      const forged = new URL(back);
      forged.searchParams.set("state", "another-state-than-the-one-sent");
      await refused(t, await callback(t, forged, s.cookie), /could not be matched/);
      expect(countUsers(t)).toBe(1);
    }));

  test("a callback without the cookie of its start (another browser) is refused", () =>
    withApp(async (t) => {
      const s = await start(t);
      const back = await signInAt(s.authorizationUrl.href, "bob");
      await refused(t, await callback(t, back, "phrasebook_oidc=someone-elses"), /expired or was already used/);
    }));

  test("a replayed callback is refused, and a replayed code too", () =>
    withApp(async (t) => {
      const s = await start(t);
      const back = await signInAt(s.authorizationUrl.href, "bob");
      const first = await callback(t, back, s.cookie);
      expect((await outcome(first)).session).not.toBeNull();
      // The answer clears the sign-in's cookie; a browser that kept it anyway (or a copy of it)
      // replays a spent code, which the provider refuses.
      expect(first.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^phrasebook_oidc=; .*Max-Age=0/));
      await refused(t, await callback(t, back, s.cookie), /did not accept the sign-in/);
      // Without the cookie, nothing is under way in that browser.
      await refused(t, await callback(t, back, ""), /expired or was already used/);
      // The same code under a new sign-in (its state put in): the provider refuses the spent code.
      const again = await start(t);
      const replay = new URL(back);
      replay.searchParams.set("state", again.authorizationUrl.searchParams.get("state")!);
      await refused(t, await callback(t, replay, again.cookie), /did not accept the sign-in/);
    }));

  test("a nonce other than the one sent is refused (the ID token is not this sign-in's)", () =>
    withApp(async (t) => {
      const s = await start(t);
      const tampered = new URL(s.authorizationUrl);
      tampered.searchParams.set("nonce", "a-nonce-the-app-never-sent");
      const back = await signInAt(tampered.href, "bob");
      await refused(t, await callback(t, back, s.cookie), /could not be verified/);
      expect(countUsers(t)).toBe(1);
    }));

  test("a provider error (the person cancelled) is refused with the page's sentence, not the provider's words", () =>
    withApp(async (t) => {
      const s = await start(t);
      const back = await signInAt(s.authorizationUrl.href, "nobody-at-the-provider");
      expect(back.searchParams.get("error")).toBe("access_denied");
      const res = await callback(t, back, s.cookie);
      expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard/login?sso_error=provider`);
      await refused(t, res, /did not sign you in \(the sign-in was cancelled or refused there\)/);
    }));
});

describe("groups are read again at every sign-in", () => {
  test("an admin taken out of the admin groups is a member from that sign-in on", () =>
    withApp(async (t) => {
      const ada = { ...accounts.ada!, groups: ["staff", ADMIN_GROUP] };
      accounts.ada = ada;
      try {
        const first = await signIn(t, "ada");
        expect((await me(t, first.session!)).user.role).toBe("admin");
        ada.groups = ["staff"];
        const second = await signIn(t, "ada");
        expect((await me(t, second.session!)).user.role).toBe("member");
        // The role moved the user's credential epoch; the older session goes on with the new role.
        expect((await me(t, first.session!)).user.role).toBe("member");
        const change = auditRows(t).find((r) => r.action === "user_changed")!;
        expect(JSON.parse(change.details)).toMatchObject({ role: { from: "admin", to: "member" } });
        // Taken out of the allowed groups: no sign-in at all.
        ada.groups = ["contractors"];
        expect((await signIn(t, "ada")).ssoError).toMatch(/not in a group/);
      } finally {
        accounts.ada = people().ada!;
      }
    }));

  test("the last admin is never demoted by the groups: the sign-in keeps the role and is logged", () =>
    withApp(
      async (t) => {
        const ada = accounts.ada!;
        try {
          const first = await signIn(t, "ada");
          expect((await me(t, first.session!)).user.role).toBe("admin");
          ada.groups = ["staff"];
          const second = await signIn(t, "ada");
          expect((await me(t, second.session!)).user.role).toBe("admin");
          const signIns = auditRows(t).filter((r) => r.action === "sign_in");
          expect(JSON.parse(signIns.at(-1)!.details)).toMatchObject({ method: "oidc", role_kept: "admin" });
        } finally {
          accounts.ada = people().ada!;
        }
      },
      { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" },
    ));

  test("with no admin groups set, sign-in never changes a role", () =>
    withApp(
      async (t) => {
        const admin = await t.login();
        const made = await admin.post("/users", { email: "bob@example.test", name: "Bob", password: "password-1", role: "admin" });
        expect(made.status).toBe(201);
        const out = await signIn(t, "bob");
        expect((await me(t, out.session!)).user.role).toBe("admin");
        expect((await signIn(t, "ada")).session).not.toBeNull();
        expect(t.query<{ role: string }>("SELECT role FROM users WHERE email = 'ada@example.test'")[0]!.role).toBe("member");
      },
      { PHRASEBOOK_OIDC_ADMIN_GROUPS: "" },
    ));
});

describe("what single sign-on changes is in the audit log's transaction", () => {
  test("when the entry cannot be written, no user is created and no role changed", () =>
    withApp(async (t) => {
      const ada = accounts.ada!;
      try {
        expect((await signIn(t, "ada")).session).not.toBeNull();
        t.deps.db.$client.run("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log refused'); END");
        const users = t.query("SELECT public_id, role, credential_epoch FROM users ORDER BY id");
        // A first sign-in (user_created) and a demotion by the groups (user_changed) both fail whole,
        // and the person is back on the login page with one sentence, not a JSON 500.
        const failed = { status: 302, session: null, ssoCode: "server", ssoError: "Signing in did not finish on this server; try again, or ask an administrator to read the server's log." };
        expect(await signIn(t, "bob")).toMatchObject(failed);
        ada.groups = ["staff"];
        expect(await signIn(t, "ada")).toMatchObject(failed);
        expect(t.query("SELECT public_id, role, credential_epoch FROM users ORDER BY id")).toEqual(users);
        expect(t.query("SELECT 1 FROM users WHERE email = 'bob@example.test'")).toEqual([]);
      } finally {
        accounts.ada = people().ada!;
      }
    }));
});

describe("the provider's keys", () => {
  test("a key the provider rotated in is known at once; a token signed by a key it does not publish is refused", async () => {
    const rotating = await providerFor(accounts);
    const port = rotating.port;
    let current = rotating;
    const t = await testApp({ env: oidcEnv(rotating) });
    try {
      expect((await signIn(t, "bob")).session).not.toBeNull();
      // The provider restarts with a new key only (the old one retired).
      await current.stop();
      current = await providerFor(accounts, { port, keys: [await newSigningKey("key-2")] });
      expect((await signIn(t, "bob")).session).not.toBeNull();
      // It signs with key-2 but publishes another key: the ID token's key is unknown.
      current.publishKeys(publicKeys([await newSigningKey("key-3")]));
      const out = await signIn(t, "bob");
      expect(out.session).toBeNull();
      expect(out.ssoError).toMatch(/could not be verified/);
      current.publishKeys(null);
      expect((await signIn(t, "bob")).session).not.toBeNull();
    } finally {
      await t.close();
      await current.stop();
    }
  });
});

describe("signing out", () => {
  test("POST /logout answers the provider's end_session_url for a single sign-on session, null for a password one", () =>
    withApp(async (t) => {
      const out = await signIn(t, "bob");
      const { csrf_token } = await me(t, out.session!);
      const res = await t.fetch("/dashboard/api/logout", { method: "POST", headers: { cookie: out.session!, "x-csrf-token": csrf_token } });
      expect(res.status).toBe(200);
      const { end_session_url } = (await res.json()) as { end_session_url: string };
      const url = new URL(end_session_url);
      expect(url.origin + url.pathname).toBe(`${provider.issuer}/session/end`);
      expect(url.searchParams.get("client_id")).toBe("phrasebook");
      expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${ORIGIN}/dashboard/login`);
      const admin = await t.login();
      expect((await admin.post("/logout")).body).toEqual({ end_session_url: null });
      expect(auditRows(t).filter((r) => r.action === "sign_out").map((r) => JSON.parse(r.details).method)).toEqual(["oidc", "password"]);
    }));
});

describe("PHRASEBOOK_PASSWORD_LOGIN=false", () => {
  test("the form is not offered, POST /login is 403 with the reason, break-glass users still sign in and are marked", () =>
    withApp(
      async (t) => {
        expect(await (await t.fetch("/dashboard/api/auth-methods")).json()).toMatchObject({ password: false, oidc: { name: "Example SSO" } });
        const refused = await t.client().login(ADMIN_EMAIL, ADMIN_PASSWORD);
        expect(refused.status).toBe(403);
        expect(refused.body.error).toMatch(/password sign-in is turned off/);
        // A wrong password is the same 403 for every account: the answer tells neither a right
        // password nor a break-glass account apart (test/adversarial/password-off.test.ts).
        const wrong = await t.client().login(ADMIN_EMAIL, "wrong password");
        expect([wrong.status, wrong.body]).toEqual([refused.status, refused.body]);
        // What `phrasebook user create` makes (src/cli/user-create.ts): a break-glass account.
        await createUser(t.deps.db, t.deps.clock, { email: "glass@example.test", name: "Break Glass", password: "break-glass-pw", role: "admin" }, { breakGlass: true });
        const glass = await t.client().login("glass@example.test", "break-glass-pw");
        expect(glass.status).toBe(200);
        const list = (await (await t.login("glass@example.test", "break-glass-pw")).get("/users")).body.items as { email: string; break_glass: boolean }[];
        expect(list.map((u) => [u.email, u.break_glass])).toEqual([
          [ADMIN_EMAIL, false],
          ["glass@example.test", true],
        ]);
        // Single sign-on works meanwhile.
        expect((await signIn(t, "bob")).session).not.toBeNull();
      },
      { PHRASEBOOK_PASSWORD_LOGIN: "false" },
    ));
});

describe("the single sign-on settings", () => {
  test("the issuer must be https, or http on a loopback address", () => {
    const base = { PHRASEBOOK_OIDC_CLIENT_ID: "x" };
    expect(() => loadSettings({ ...base, PHRASEBOOK_OIDC_ISSUER: "http://idp.example.test/realms/x" })).toThrow("PHRASEBOOK_OIDC_ISSUER: must be https (http only on a loopback address)");
    for (const ok of ["https://idp.example.test/realms/x", "http://127.0.0.1:9000", "http://[::1]:9000", "http://localhost:9000", "https://auth.example.test/application/o/phrasebook/"]) {
      expect(loadSettings({ ...base, PHRASEBOOK_OIDC_ISSUER: ok }).oidcIssuer).toBe(ok);
    }
    expect(() => loadSettings({ PHRASEBOOK_OIDC_ISSUER: "https://idp.example.test" })).toThrow("PHRASEBOOK_OIDC_CLIENT_ID: is required");
    expect(() => loadSettings({ PHRASEBOOK_PASSWORD_LOGIN: "false" })).toThrow("PHRASEBOOK_PASSWORD_LOGIN: can be false only with PHRASEBOOK_OIDC_ISSUER set");
    const s = loadSettings({});
    expect([s.oidcIssuer, s.oidcName, s.oidcScopes, s.oidcGroupsClaim, s.oidcSessionHours, s.passwordLogin]).toEqual([undefined, "Single sign-on", ["openid", "email", "profile"], "groups", 12, true]);
  });

  test("without an issuer there is no single sign-on: /auth-methods says so, its routes are 404", async () => {
    const t = await testApp();
    try {
      expect(await (await t.fetch("/dashboard/api/auth-methods")).json()).toEqual({ password: true, oidc: null });
      expect((await t.fetch("/dashboard/api/oidc/start")).status).toBe(404);
      expect((await t.fetch("/dashboard/api/oidc/callback?code=x&state=y")).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

test("no secret, password, code or token value is ever in the audit log", () =>
  withApp(async (t) => {
    const admin = await t.login();
    const s = await start(t);
    const back = await signInAt(s.authorizationUrl.href, "bob");
    const signedIn = await outcome(await callback(t, back, s.cookie));
    await t.client().login(ADMIN_EMAIL, "a-wrong-password-typed");
    const pid = (await admin.post("/projects", { name: "P", base_language_code: "en" })).body.id;
    const token = (await admin.post(`/projects/${pid}/tokens`, { name: "CI" })).body;
    const hook = (await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/in?key=query-secret-value", events: ["key_created"], secret: "webhook-signing-secret" })).body;
    await admin.patch(`/projects/${pid}/webhooks/${hook.id}`, { secret: "another-signing-secret" });
    const user = (await admin.post("/users", { email: "new@example.test", name: "New", password: "new-user-password", role: "member" })).body;
    await admin.patch(`/users/${user.id}`, { password: "changed-user-password" });
    await admin.delete(`/projects/${pid}/tokens/${token.id}`);
    const dump = JSON.stringify(t.query("SELECT * FROM audit_log"));
    const secrets = [
      CLIENT_SECRET,
      ADMIN_PASSWORD,
      "a-wrong-password-typed",
      token.token,
      "query-secret-value",
      "webhook-signing-secret",
      "another-signing-secret",
      "new-user-password",
      "changed-user-password",
      back.searchParams.get("code")!,
      s.authorizationUrl.searchParams.get("state")!,
      s.authorizationUrl.searchParams.get("nonce")!,
      s.cookie.split("=")[1]!,
      signedIn.session!.split("=")[1]!,
      admin.cookie.split("=")[1]!,
    ];
    for (const secret of secrets) expect(dump).not.toContain(secret);
    expect(dump).toContain("token_created");
    expect(dump).toContain("webhook_changed");
  }));
