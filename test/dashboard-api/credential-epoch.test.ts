/**
 * The credential epoch (docs/dashboard-api.md "Sessions"): a session counts only while it carries
 * the user's current epoch; a password change, a role change and a deletion move it, so a sign-in
 * verified before one of them gets no session; which sessions a change ends stays as documented.
 * Users without a password (single sign-on) cannot sign in with one. In-process; the races through
 * a real server are in test/adversarial/users.test.ts.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { signIn, signInMethods } from "../../src/accounts/sign-in/index.ts";
import { createSession } from "../../src/accounts/sessions.ts";
import { deleteUser, updateUser } from "../../src/accounts/users.ts";
import { HttpError } from "../../src/common/errors.ts";
import { hashPassword } from "../../src/accounts/passwords.ts";
import { DATABASE_FILE } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { MIGRATIONS } from "../../src/storage/migrations/index.ts";
import { testApp, testDir } from "../helpers/app.ts";
import { openWorld } from "../helpers/scenario.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";
import { MEMBER, standardWorld } from "./world.ts";

const ADDRESS = "203.0.113.7";

async function refusal(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("users without a password (docs/dashboard-api.md Sessions)", () => {
  test("cannot sign in with any password, the dummy hash's own included: the same 401 as a wrong one, counted as failed", async () => {
    const w = await openWorld(standardWorld);
    try {
      w.t.query("UPDATE users SET password_hash = NULL WHERE email = ?", MEMBER.email);
      const client = w.t.client(ADDRESS);
      for (const password of [MEMBER.password, "phrasebook-timing-equaliser", ""]) {
        const reply = await client.login(MEMBER.email, password);
        expect({ password, status: reply.status, body: reply.body }).toEqual({ password, status: 401, body: { error: "wrong email or password" } });
      }
      // Two more failures make five for this account: the limit applies as to any failed login.
      await client.login(MEMBER.email, "x");
      await client.login(MEMBER.email, "y");
      expect((await client.login(MEMBER.email, MEMBER.password)).status).toBe(429);
      // Everyone else signs in as before.
      expect((await client.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
    } finally {
      await w.close();
    }
  });
});

describe("a sign-in verified before a change gets no session (docs/dashboard-api.md Sessions)", () => {
  const cases: [string, (w: Awaited<ReturnType<typeof openWorld>>) => Promise<void> | void][] = [
    ["a new password", async (w) => void (await updateUser(w.t.deps.db, w.ids.memberId!, { password: "another-password" }))],
    ["a new role", async (w) => void (await updateUser(w.t.deps.db, w.ids.memberId!, { role: "admin" }))],
    ["the user's deletion", (w) => deleteUser(w.t.deps.db, w.ids.memberId!)],
  ];
  for (const [change, apply] of cases) {
    test(`${change} between the password check and the session: no session is made`, async () => {
      const w = await openWorld(standardWorld);
      try {
        const { db, clock } = w.t.deps;
        const verified = await signInMethods(w.t.deps).password.verify({ email: MEMBER.email, password: MEMBER.password, address: ADDRESS });
        const before = w.t.query("SELECT token_hash FROM sessions").length;
        await apply(w);
        const after = w.t.query("SELECT token_hash FROM sessions").length;
        expect(createSession(db, clock, verified)).toBeNull();
        expect(w.t.query("SELECT token_hash FROM sessions").length).toBe(after);
        expect(after).toBeLessThanOrEqual(before);
      } finally {
        await w.close();
      }
    });
  }

  test("through signIn, the answer is the method's 401; with nothing changed, the same proof makes a session", async () => {
    const w = await openWorld(standardWorld);
    try {
      const methods = signInMethods(w.t.deps);
      const verified = await methods.password.verify({ email: MEMBER.email, password: MEMBER.password, address: ADDRESS });
      expect(createSession(w.t.deps.db, w.t.deps.clock, verified)).not.toBeNull();
      const raced = { ...methods.password, verify: async () => verified };
      await updateUser(w.t.deps.db, w.ids.memberId!, { role: "admin" });
      expect(await refusal(signIn(w.t.deps, raced, undefined))).toEqual({ status: 401, message: "wrong email or password" });
    } finally {
      await w.close();
    }
  });

  test("a method this server does not offer is refused before it verifies anything", async () => {
    const w = await openWorld(standardWorld);
    try {
      const password = signInMethods(w.t.deps).password;
      const off = { ...password, enabled: false };
      const attempt = { email: MEMBER.email, password: MEMBER.password, address: ADDRESS };
      expect(await refusal(signIn(w.t.deps, off, attempt))).toEqual({ status: 403, message: "signing in with password is turned off on this server" });
      expect((await signIn(w.t.deps, password, attempt)).session.user.email).toBe(MEMBER.email);
    } finally {
      await w.close();
    }
  });
});

describe("which sessions a change ends stays as documented (docs/dashboard-api.md, product.md §4)", () => {
  test("a session counts only while it carries the user's epoch", async () => {
    const w = await openWorld(standardWorld);
    try {
      const member = w.as("member");
      expect((await member.get("/me")).status).toBe(200);
      w.t.query("UPDATE users SET credential_epoch = credential_epoch + 1 WHERE email = ?", MEMBER.email);
      expect((await member.get("/me")).status).toBe(401);
      expect((await w.as("admin").get("/me")).status).toBe(200);
    } finally {
      await w.close();
    }
  });

  test("a new role moves the epoch and keeps every session of the user, which sees the role at once", async () => {
    const w = await openWorld(standardWorld);
    try {
      const second = await w.t.login(MEMBER.email, MEMBER.password);
      const epoch = () => w.t.query<{ e: number }>("SELECT credential_epoch AS e FROM users WHERE email = ?", MEMBER.email)[0]!.e;
      const before = epoch();
      expect((await w.as("admin").patch(`/users/${w.ids.memberId}`, { role: "admin" })).status).toBe(200);
      expect(epoch()).toBe(before + 1);
      expect((await w.as("member").get("/me")).body.user.role).toBe("admin");
      expect((await second.get("/me")).body.user.role).toBe("admin");
      expect((await w.as("admin").patch(`/users/${w.ids.memberId}`, { role: "member" })).status).toBe(200);
      expect((await second.get("/me")).body.user.role).toBe("member");
      // A new name is no change of credentials: the epoch stays.
      expect((await w.as("admin").patch(`/users/${w.ids.memberId}`, { name: "Renamed" })).status).toBe(200);
      expect(epoch()).toBe(before + 2);
    } finally {
      await w.close();
    }
  });

  test("a new password set by the user themselves keeps the session that set it, under the new epoch", async () => {
    const w = await openWorld(standardWorld);
    try {
      const elsewhere = await w.t.login(MEMBER.email, MEMBER.password);
      const admin = await w.t.login();
      // Members may not change users: the admin promotes the member, who then changes their own password.
      expect((await admin.patch(`/users/${w.ids.memberId}`, { role: "admin" })).status).toBe(200);
      const member = w.as("member");
      expect((await member.patch(`/users/${w.ids.memberId}`, { password: "my-new-password" })).status).toBe(200);
      expect((await member.get("/me")).status).toBe(200);
      expect((await elsewhere.get("/me")).status).toBe(401);
      const rows = w.t.query<{ s: number; u: number }>("SELECT s.credential_epoch AS s, u.credential_epoch AS u FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?", MEMBER.email);
      expect(rows.length).toBe(1);
      expect(rows[0]!.s).toBe(rows[0]!.u);
    } finally {
      await w.close();
    }
  });
});

describe("upgrade (docs/deploy.md Upgrades)", () => {
  test("sessions and passwords made before the credential epoch existed still count after the migration", async () => {
    const dataDir = testDir();
    const db = new Database(join(dataDir, DATABASE_FILE), { create: true });
    const before = MIGRATIONS.findIndex((m) => m.tag.endsWith("_password_optional"));
    expect(before).toBeGreaterThan(0);
    migrate(db, MIGRATIONS.slice(0, before));
    const passwordHash = await hashPassword("old-password");
    db.query("INSERT INTO users (public_id, email, name, password_hash, role, created_at) VALUES ('usr_00000000000000000001', 'old@example.test', 'Old', ?, 'admin', 0)").run(passwordHash);
    const cookie = "c".repeat(43);
    const tokenHash = new Bun.CryptoHasher("sha256").update(cookie).digest("hex");
    db.query("INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, 1, 'csrf', 0, ?)").run(tokenHash, Date.UTC(2030, 0, 1));
    db.close();

    const t = await testApp({ dataDir, env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
    try {
      const me = await t.fetch("/dashboard/api/me", { headers: { cookie: `phrasebook_session=${cookie}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as any).user.email).toBe("old@example.test");
      expect((await t.client().login("old@example.test", "old-password")).status).toBe(200);
      expect(t.query("SELECT typeof(credential_epoch) AS t, credential_epoch AS e FROM users")).toEqual([{ t: "integer", e: 0 }]);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
