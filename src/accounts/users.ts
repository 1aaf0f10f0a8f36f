import { asc, eq, sql } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { iso } from "../common/clock.ts";
import { badRequest, conflict, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import { users, type UserRow } from "../storage/schema.ts";

export type Role = "admin" | "member";
export const PASSWORD_MIN_LENGTH = 8;

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}

export function userView(u: UserRow): UserView {
  return { id: u.publicId, email: u.email, name: u.name, role: u.role, created_at: iso(u.createdAt) };
}

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  // Deliberately loose: one @ with something on both sides; delivery is not our concern.
  if (!/^[^\s@]+@[^\s@]+$/.test(e) || e.length > 254) throw badRequest('invalid field "email": not an email address');
  return e;
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badRequest(`invalid field "password": must be at least ${PASSWORD_MIN_LENGTH} characters`);
}

export async function createUser(
  db: Db,
  clock: Clock,
  input: { email: string; name: string; password: string; role: Role },
): Promise<UserView> {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (!name) throw badRequest('invalid field "name": must not be empty');
  checkPassword(input.password);
  const passwordHash = await Bun.password.hash(input.password); // argon2id
  if (db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) {
    throw conflict(`a user with email ${email} already exists`);
  }
  const row = db
    .insert(users)
    .values({ publicId: newId("usr"), email, name, passwordHash, role: input.role, createdAt: clock.now() })
    .returning()
    .get();
  return userView(row);
}

export function listUsers(db: Db): UserView[] {
  return db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).all().map(userView);
}

export function countUsers(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(users).get()!.n;
}

export function findUser(db: Db, publicId: string): UserRow {
  const row = db.select().from(users).where(eq(users.publicId, publicId)).get();
  if (!row) throw notFound("user not found");
  return row;
}

function adminCount(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.role, "admin")).get()!.n;
}

export async function updateUser(
  db: Db,
  publicId: string,
  patch: { name?: string; role?: Role; password?: string },
): Promise<UserView> {
  const user = findUser(db, publicId);
  const values: Partial<UserRow> = {};
  if (patch.name !== undefined) {
    if (!patch.name.trim()) throw badRequest('invalid field "name": must not be empty');
    values.name = patch.name.trim();
  }
  if (patch.role !== undefined && patch.role !== user.role) {
    if (user.role === "admin" && adminCount(db) === 1) throw conflict("cannot demote the last admin");
    values.role = patch.role;
  }
  if (patch.password !== undefined) {
    checkPassword(patch.password);
    values.passwordHash = await Bun.password.hash(patch.password);
  }
  if (Object.keys(values).length === 0) return userView(user);
  return userView(db.update(users).set(values).where(eq(users.id, user.id)).returning().get()!);
}

/** Deletes a user; their releases stay (created_by becomes null, docs/interface.md §4.2 rule 3). */
export function deleteUser(db: Db, publicId: string): void {
  const user = findUser(db, publicId);
  if (user.role === "admin" && adminCount(db) === 1) throw conflict("cannot delete the last admin");
  db.delete(users).where(eq(users.id, user.id)).run();
}

/** With both bootstrap settings set and no user yet, create the first admin (docs/product.md §1). */
export async function bootstrapAdmin(db: Db, clock: Clock, email: string | undefined, password: string | undefined): Promise<UserView | null> {
  if (!email || !password || countUsers(db) > 0) return null;
  return createUser(db, clock, { email, name: "Admin", password, role: "admin" });
}
