/**
 * With password sign-in off (PHRASEBOOK_PASSWORD_LOGIN=false), a right password of an account that
 * may no longer use it answered 403 and a wrong one 401: an oracle for the passwords of every
 * account single sign-on replaced, and for which accounts are break-glass ones. Now every attempt
 * but a break-glass account's right password gets one answer, costs one password check against
 * the account's own hash, and counts as a failed attempt (docs/dashboard-api.md "Single sign-on").
 * Tried one at a time and in parallel.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/accounts/users.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";

const MEMBER = { email: "member@example.test", password: "member-password" };
const GLASS = { email: "glass@example.test", password: "break-glass-password" };

let t: TestApp;
beforeAll(async () => {
  t = await testApp({
    env: {
      // Single sign-on set up (no sign-in through it happens here), password sign-in off.
      PHRASEBOOK_OIDC_ISSUER: "http://127.0.0.1:9/realms/unused",
      PHRASEBOOK_OIDC_CLIENT_ID: "phrasebook",
      PHRASEBOOK_PASSWORD_LOGIN: "false",
    },
  });
  await createUser(t.deps.db, t.deps.clock, { ...MEMBER, name: "Member", role: "member" });
  await createUser(t.deps.db, t.deps.clock, { ...GLASS, name: "Break Glass", role: "admin" }, { breakGlass: true });
});
afterAll(() => t?.close());

/** Each attempt from an address of its own, so the failed-login limit stays out of the way. */
let nextAddress = 1;
const login = async (email: string, password: string, from = `198.51.100.${nextAddress++}`) => {
  const r = await t.client(from).login(email, password);
  return { status: r.status, body: r.body as unknown };
};

/** Counts the argon2id checks made while `run` runs, with the hash each was made against. */
async function countingChecks<T>(run: () => Promise<T>): Promise<{ result: T; hashes: string[] }> {
  const verify = Bun.password.verify;
  const hashes: string[] = [];
  Bun.password.verify = ((password: string, hash: string, ...rest: unknown[]) => {
    hashes.push(hash);
    return (verify as (...a: unknown[]) => Promise<boolean>).call(Bun.password, password, hash, ...rest);
  }) as typeof verify;
  try {
    return { result: await run(), hashes };
  } finally {
    Bun.password.verify = verify;
  }
}

const hashOf = (email: string) => t.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = ?", email)[0]!.password_hash;

describe("with password sign-in off, no answer tells a right password from a wrong one", () => {
  test("an account that may not use its password: right and wrong get the same status and body, after the same one check", async () => {
    for (const [email, password] of [
      [ADMIN_EMAIL, ADMIN_PASSWORD],
      [MEMBER.email, MEMBER.password],
    ] as const) {
      const right = await countingChecks(() => login(email, password));
      const wrong = await countingChecks(() => login(email, `${password}-but-wrong`));
      expect(right.result).toEqual(wrong.result);
      expect(right.result.status).toBe(403);
      expect(right.result.body).toEqual({ error: "password sign-in is turned off on this server; sign in with single sign-on, or with a break-glass account's email and password" });
      // The same work: one argon2id check each, against the account's own hash.
      expect(right.hashes).toEqual([hashOf(email)]);
      expect(wrong.hashes).toEqual([hashOf(email)]);
    }
  });

  test("an unknown email and a break-glass account's wrong password get that same answer; only a break-glass account's right one signs in", async () => {
    const refused = await login(MEMBER.email, "anything");
    expect(await login("nobody@example.test", "anything")).toEqual(refused);
    expect(await login("not an address", "anything")).toEqual(refused);
    expect(await login(GLASS.email, "a wrong password")).toEqual(refused);
    expect((await login(GLASS.email, GLASS.password)).status).toBe(200);
  });

  test("in parallel, right and wrong passwords of an account that may not use it all get one answer", async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => login(MEMBER.email, i % 2 === 0 ? MEMBER.password : `wrong-${i}`)));
    expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(replies[0]!.status).toBe(403);
  });

  test("a right password of such an account counts as a failed attempt: the limit answers it as it answers wrong ones", async () => {
    const from = "203.0.113.77";
    const rights = [];
    for (let i = 0; i < 6; i++) rights.push((await login(MEMBER.email, MEMBER.password, from)).status);
    const wrongs = [];
    for (let i = 0; i < 6; i++) wrongs.push((await login(ADMIN_EMAIL, `wrong-${i}`, "203.0.113.78")).status);
    expect(rights).toEqual(wrongs);
    expect(rights.at(-1)).toBe(429);
  });
});
