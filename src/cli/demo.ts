import { eq } from "drizzle-orm";
import { realpathSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, relative } from "node:path";
import { countUsers, createUser } from "../accounts/users.ts";
import { createKey } from "../authoring/keys.ts";
import { approveTranslation, setTranslation } from "../authoring/translations.ts";
import { addLanguage } from "../authoring/languages.ts";
import { createProject, findProject, listProjects } from "../authoring/projects.ts";
import { Changes } from "../changes/changes.ts";
import { systemClock, type Clock } from "../common/clock.ts";
import { randomString } from "../common/ids.ts";
import type { Settings } from "../config/settings.ts";
import type { AppDeps, ServiceDeps } from "../deps.ts";
import { PublishTargets } from "../targets/registry.ts";
import { FileRenderer } from "../targets/render.ts";
import { publishRelease } from "../releases/publish.ts";
import { createRelease } from "../releases/releases.ts";
import { openDatabase, type Db } from "../storage/db.ts";
import { migrate } from "../storage/migrate.ts";
import { users } from "../storage/schema.ts";
import { createToken } from "../tokens/tokens.ts";
import { DEMO_KEYS, DEMO_LANGUAGES, DEMO_PROJECT_NAME, DEMO_UNREVIEWED_DE } from "./demo-content.ts";

/**
 * `phrasebook demo` (docs/product.md §1): on an empty data dir, a project with three languages, ~50 keys,
 * one published release and one API token, so a newcomer's first command shows a working product
 * and a `curl` line that answers. A data dir with any user or project is never touched.
 */
export const DEMO_ADMIN_EMAIL = "admin@example.com";
export const DEMO_ADMIN_NAME = "Demo Admin";
const DEMO_PASSWORD_LENGTH = 16;

export interface DemoLogin {
  email: string;
  /** null when the password came from PHRASEBOOK_ADMIN_PASSWORD (never echoed back). */
  password: string | null;
}

export type DemoOutcome = { seeded: true; login: DemoLogin; token: string; projectId: string } | { seeded: false };

export function isEmpty(db: Db): boolean {
  return countUsers(db) === 0 && listProjects(db).length === 0;
}

async function seed(deps: ServiceDeps & Pick<AppDeps, "targets">, settings: Settings): Promise<Extract<DemoOutcome, { seeded: true }>> {
  const { db, clock } = deps;
  const fromEnv = settings.adminEmail && settings.adminPassword;
  const login: DemoLogin = fromEnv
    ? { email: settings.adminEmail!, password: null }
    : { email: DEMO_ADMIN_EMAIL, password: randomString(DEMO_PASSWORD_LENGTH) };
  const admin = await createUser(db, clock, { email: login.email, name: DEMO_ADMIN_NAME, password: login.password ?? settings.adminPassword!, role: "admin" });
  const adminId = db.select({ id: users.id }).from(users).where(eq(users.publicId, admin.id)).get()!.id;
  const actor = { kind: "user" as const, publicId: admin.id, name: admin.name };

  const view = createProject(deps, { name: DEMO_PROJECT_NAME, base_language_code: DEMO_LANGUAGES[0] });
  let project = findProject(db, view.id);
  for (const code of DEMO_LANGUAGES.slice(1)) addLanguage(deps, project, { code });

  for (const k of DEMO_KEYS) {
    const key = createKey(deps, project, k.context ? { key: k.key, context: k.context } : { key: k.key });
    for (const code of DEMO_LANGUAGES) {
      const value = k[code];
      if (value === undefined) continue;
      setTranslation(deps, project, key.id, code, value, actor);
      // Base strings and reviewed German are approved; Portuguese waits for review, as it would.
      if (code === "en" || (code === "de" && !DEMO_UNREVIEWED_DE.has(k.key))) approveTranslation(deps, project, key.id, code, actor);
    }
  }

  const launch = createRelease(deps, project, adminId, { name: "Launch", tag: "v1.0.0" });
  // Nothing caches yet (the server starts after this), so no listener needs the change notice.
  await publishRelease(deps, settings.dataDir, project, launch.id);
  createRelease(deps, project, adminId, { name: "Summer update", tag: "v1.1.0" });
  project = findProject(db, view.id);
  // Every scope, so the same token pushes, publishes and pulls with the client (docs/automation.md).
  const token = createToken(deps, project, { name: "Demo token", scopes: ["read", "write", "publish"] }).token;
  return { seeded: true, login, token, projectId: view.id };
}

/**
 * Whether the server's port can be listened on, asked before the demo is seeded: a demo seeded for
 * a server that then cannot listen would print its password to nobody, and the next run finds the
 * data dir full (docs/product.md §1).
 */
export async function portIsFree(host: string, port: number): Promise<boolean> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Fills an empty data dir; runs before the server opens the database, so no cache is stale. */
export async function prepareDemo(settings: Settings, clock: Clock = systemClock): Promise<DemoOutcome> {
  const db = openDatabase(settings.dataDir);
  try {
    migrate(db.$client);
    if (!isEmpty(db)) return { seeded: false };
    const changes = new Changes(db, clock);
    const targets = PublishTargets.fromSettings({ settings, db, clock, fetch: (input, init) => fetch(input, init), renderer: new FileRenderer(settings.dataDir) }, changes, clock);
    try {
      return await seed({ db, clock, changes, targets }, settings);
    } finally {
      await targets.stop();
    }
  } finally {
    db.$client.close();
  }
}

/** A word as a POSIX shell reads it back. */
const shellWord = (word: string) => (/^[\w./:@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * How to run this executable again from the current directory, for the lines the banner prints
 * (docs/product.md §1: a demo prints commands that run as printed): `phrasebook` when that name on the PATH is this very
 * file, else its path (`./dist/phrasebook` below the current directory, absolute elsewhere); run
 * from source, `bun` and the entry file.
 */
export function commandName(cwd: string = process.cwd(), path: string = process.env.PATH ?? ""): string {
  const compiled = Bun.main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(Bun.main);
  const exec = realpathOr(process.execPath) ?? process.execPath;
  const shown = (file: string) => {
    const rel = relative(cwd, file);
    return shellWord(rel.startsWith("..") || isAbsolute(rel) ? file : `./${rel}`);
  };
  if (!compiled) return `${shown(exec)} ${shown(Bun.main)}`;
  const name = basename(exec);
  const onPath = path.split(delimiter).some((dir) => dir && realpathOr(join(dir, name)) === exec);
  return onPath ? shellWord(name) : shown(exec);
}

function realpathOr(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** What `phrasebook demo` prints once the server listens. Secrets go to the terminal, not the log. */
export function demoBanner(outcome: DemoOutcome, settings: Settings, command: string = commandName()): string {
  const dashboard = `${settings.publicUrl}/dashboard`;
  if (!outcome.seeded) {
    return [
      "",
      `Phrasebook: ${settings.dataDir} already holds data, so the demo project was not added; serving it as it is.`,
      `  Dashboard: ${dashboard}`,
      "  (For a fresh demo, stop the server and point PHRASEBOOK_DATA_DIR at an empty directory.)",
      "  Lost the demo password? Add another admin, then log in with it:",
      `    PHRASEBOOK_DATA_DIR=${shellWord(settings.dataDir)} ${command} user create --email you@example.com --name You --role admin`,
      "",
      "",
    ].join("\n");
  }
  const password = outcome.login.password ?? "the value of PHRASEBOOK_ADMIN_PASSWORD";
  return [
    "",
    `Phrasebook demo is ready: a project in ${DEMO_LANGUAGES.length} languages with ${DEMO_KEYS.length} keys, a published release and an API token.`,
    "",
    `  Dashboard   ${dashboard}`,
    `  Log in as   ${outcome.login.email}`,
    `  Password    ${password}${outcome.login.password ? "   (shown only now)" : ""}`,
    `  API token   ${outcome.token}   (read, write and publish; shown only now)`,
    "",
    "  Try the public API:",
    `    curl -H "Authorization: Bearer ${outcome.token}" ${settings.publicUrl}/v1/releases`,
    "  Or the client, from a folder of translation files:",
    `    PHRASEBOOK_SERVER=${settings.publicUrl} PHRASEBOOK_TOKEN=${outcome.token} ${command} status`,
    "",
    "",
  ].join("\n");
}
