import { and, asc, count, eq, ne } from "drizzle-orm";
import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import type { Clock } from "../common/clock.ts";
import { iso, systemClock } from "../common/clock.ts";
import { conflict, HttpError, invalidField, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { atLeastCharacters, checkInput } from "../common/model.ts";
import type { Db } from "../storage/db.ts";
import { sessions, users, type UserRow } from "../storage/schema.ts";
import { NewUser, type FirstAdmin, type Role, type UserPatch } from "./model.ts";
import { hashPassword } from "./passwords.ts";

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  /** Made by `phrasebook user create`: signs in with a password even where password sign-in is off. */
  break_glass: boolean;
}

export function userView(u: UserRow): UserView {
  return { id: u.publicId, email: u.email, name: u.name, role: u.role, created_at: iso(u.createdAt), break_glass: u.breakGlass };
}

/** A user as the audit log names a target. */
export const auditUser = (u: UserRow) => ({ kind: "user" as const, id: u.publicId, name: u.email });

/**
 * An address as stored and compared: trimmed, its ASCII letters lower-cased, and of the form of one.
 * Nothing else is folded or normalised (docs/deploy.md "Single sign-on", "Emails"): Unicode case
 * mapping and normalisation meet distinct addresses (the Kelvin sign U+212A lower-cases, and
 * NFC-normalises, to an ASCII `k`), so `\u212Aadmin@x.test` must stay another address than
 * `kadmin@x.test`, never reach its account. Its length is the models' to bound (model.ts).
 */
export function normaliseEmail(email: string): string {
  const e = email.trim().replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
  // Deliberately loose: one @ with something on both sides; delivery is not our concern.
  if (!/^[^\s@]+@[^\s@]+$/.test(e)) throw invalidField("email", "not an email address");
  return e;
}

/** A name as stored: trimmed, and not blank (which the schema, counting characters, lets through). */
function cleanName(raw: string): string {
  const name = raw.trim();
  if (!name) throw invalidField("name", atLeastCharacters(1));
  return name;
}

/**
 * Checks a new user against the model, in the words a route's schema uses: users are made by the
 * route, and also by `phrasebook user create`, the bootstrap settings and the demo, which no
 * schema sees (docs/architecture.md "Input models"). The password is hashed later, outside any
 * transaction (it is the slow part).
 */
function checkNewUser(input: NewUser): { email: string; name: string; role: Role } {
  checkInput(NewUser, input);
  return { email: normaliseEmail(input.email), name: cleanName(input.name), role: input.role };
}

function emailTaken(db: Db, email: string): boolean {
  return db.select({ id: users.id }).from(users).where(eq(users.email, email)).get() !== undefined;
}

/**
 * Adds a user. The email is checked once before the slow hash (a cheap refusal) and again inside
 * the writing transaction (BEGIN IMMEDIATE), which is the check that counts: of two parallel
 * requests for one email, one is a 409, never a 500 from the unique index.
 */
export async function createUser(db: Db, clock: Clock, input: NewUser, options: { breakGlass?: boolean; by?: AuditBy } = {}): Promise<UserView> {
  const user = checkNewUser(input);
  const taken = () => conflict(`a user with email ${user.email} already exists`);
  if (emailTaken(db, user.email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  // Inside the transaction `db` runs on the same connection, so these reads see its state
  // (docs/architecture.md "Reaching SQLite").
  return db.transaction(
    () => {
      if (emailTaken(db, user.email)) throw taken();
      const breakGlass = options.breakGlass ?? false;
      const row = db.insert(users).values({ ...user, passwordHash, breakGlass, publicId: newId("usr"), createdAt: clock.now() }).returning().get();
      recordAudit(db, clock, options.by ?? SYSTEM, { action: "user_created", target: auditUser(row), details: { role: row.role, break_glass: breakGlass } });
      return userView(row);
    },
    { behavior: "immediate" },
  );
}

/**
 * The first admin (first-run setup, the bootstrap settings; docs/decisions.md "First run"): only
 * while no user exists. "No user yet" is checked inside the same transaction as the insert, after
 * the slow hash, so of many parallel attempts exactly one creates an admin and the rest are 409.
 */
export async function createFirstAdmin(db: Db, clock: Clock, input: FirstAdmin): Promise<UserRow> {
  const done = () => conflict("setup is done: an admin already exists");
  if (countUsers(db) > 0) throw done();
  const user = checkNewUser({ ...input, role: "admin" });
  const passwordHash = await hashPassword(input.password);
  return db.transaction(
    () => {
      if (countUsers(db) > 0) throw done();
      const row = db.insert(users).values({ ...user, passwordHash, publicId: newId("usr"), createdAt: clock.now() }).returning().get();
      recordAudit(db, clock, SYSTEM, { action: "user_created", target: auditUser(row), details: { role: row.role, first_admin: true } });
      return row;
    },
    { behavior: "immediate" },
  );
}

export function listUsers(db: Db): UserView[] {
  return db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).all().map(userView);
}

export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(users).get()!.n;
}

/** The user of an address (as stored: normalised), if any. */
export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.email, email)).get();
}

export function findUser(db: Db, publicId: string): UserRow {
  const row = db.select().from(users).where(eq(users.publicId, publicId)).get();
  if (!row) throw notFound("user not found");
  return row;
}

export function adminCount(db: Db): number {
  return db.select({ n: count() }).from(users).where(eq(users.role, "admin")).get()!.n;
}

/**
 * Changes a user (docs/dashboard-api.md "Routes beyond product.md §4"). A new password is hashed
 * first; then, in one writing transaction (BEGIN IMMEDIATE), the user is read again, the last-admin
 * rule is checked and the change is written, so two parallel demotions cannot both pass the check.
 *
 * A new password or role moves the user's credential epoch, so a sign-in verified before the change
 * gets no session (docs/dashboard-api.md "Sessions"). Which sessions go on is decided here, by
 * carrying them to the new epoch: after a new password only `keepSession` (the caller's own, when
 * they change their own password; whoever knew the old one is signed out, and those sessions are
 * deleted), after a new role all of them (the role is read at each request).
 */
export async function updateUser(db: Db, publicId: string, patch: UserPatch, options: { keepSession?: string; by?: AuditBy; clock?: Clock } = {}): Promise<UserView> {
  const before = findUser(db, publicId);
  const name = patch.name === undefined ? undefined : cleanName(patch.name);
  const lastAdmin = (user: UserRow) => patch.role !== undefined && patch.role !== user.role && user.role === "admin" && adminCount(db) === 1;
  if (lastAdmin(before)) throw conflict("cannot demote the last admin"); // cheap refusal before the hash
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  return db.transaction(
    () => {
      const user = findUser(db, publicId);
      if (lastAdmin(user)) throw conflict("cannot demote the last admin");
      const values: Partial<UserRow> = {};
      if (name !== undefined && name !== user.name) values.name = name;
      if (patch.role !== undefined && patch.role !== user.role) values.role = patch.role;
      if (passwordHash !== undefined) {
        values.passwordHash = passwordHash;
        const others = options.keepSession ? and(eq(sessions.userId, user.id), ne(sessions.tokenHash, options.keepSession)) : eq(sessions.userId, user.id);
        db.delete(sessions).where(others).run();
      }
      if (values.passwordHash !== undefined || values.role !== undefined) {
        values.credentialEpoch = user.credentialEpoch + 1;
        db.update(sessions).set({ credentialEpoch: values.credentialEpoch }).where(eq(sessions.userId, user.id)).run();
      }
      if (Object.keys(values).length === 0) return userView(user);
      const changed = db.update(users).set(values).where(eq(users.id, user.id)).returning().get()!;
      // What changed, by name; a new password is logged as the fact, never the value
      // (docs/dashboard-api.md "Audit log").
      const details: Record<string, unknown> = {};
      if (values.name !== undefined) details.name = { from: user.name, to: values.name };
      if (values.role !== undefined) details.role = { from: user.role, to: values.role };
      if (values.passwordHash !== undefined) details.password_changed = true;
      recordAudit(db, options.clock ?? systemClock, options.by ?? SYSTEM, { action: "user_changed", target: auditUser(changed), details });
      return userView(changed);
    },
    { behavior: "immediate" },
  );
}

/**
 * Deletes a user; their releases stay (created_by becomes null, docs/interface.md §4.2 rule 3) and
 * their sessions go with them. The last-admin rule is checked in the deleting transaction. With
 * the row goes its credential epoch: a sign-in verified before finds no user to make a session
 * for (docs/dashboard-api.md "Sessions").
 */
export function deleteUser(db: Db, publicId: string, options: { by?: AuditBy; clock?: Clock } = {}): void {
  db.transaction(
    () => {
      const user = findUser(db, publicId);
      if (user.role === "admin" && adminCount(db) === 1) throw conflict("cannot delete the last admin");
      db.delete(users).where(eq(users.id, user.id)).run();
      recordAudit(db, options.clock ?? systemClock, options.by ?? SYSTEM, { action: "user_deleted", target: auditUser(user), details: { role: user.role } });
    },
    { behavior: "immediate" },
  );
}

/** With both bootstrap settings set and no user yet, create the first admin (docs/product.md §1). */
export async function bootstrapAdmin(db: Db, clock: Clock, email: string | undefined, password: string | undefined): Promise<UserView | null> {
  if (!email || !password || countUsers(db) > 0) return null;
  try {
    return userView(await createFirstAdmin(db, clock, { email, name: "Admin", password }));
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) return null; // another process was first
    throw err;
  }
}
