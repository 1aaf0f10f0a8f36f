import type { Role } from "../accounts/model.ts";
import { createUser } from "../accounts/users.ts";
import { systemClock } from "../common/clock.ts";
import { CliError, HttpError } from "../common/errors.ts";
import { loadSettings } from "../config/settings.ts";
import { openDatabase } from "../storage/db.ts";
import { migrate } from "../storage/migrate.ts";

/** `phrasebook user create --email E --name N [--role admin]` (docs/product.md §1). */
export async function runUserCreate(flags: Record<string, string>): Promise<number> {
  const email = flags["--email"];
  const name = flags["--name"];
  const role = (flags["--role"] ?? "member") as Role;
  if (!email) throw new CliError("user create needs --email");
  if (!name) throw new CliError("user create needs --name");
  if (role !== "admin" && role !== "member") throw new CliError(`--role must be admin or member (got "${role}")`);
  const password = process.env.PHRASEBOOK_PASSWORD ?? (await promptPassword());
  const settingFlags = Object.fromEntries(Object.entries(flags).filter(([k]) => !["--email", "--name", "--role"].includes(k)));
  const settings = loadSettings(process.env, settingFlags);
  const db = openDatabase(settings.dataDir);
  try {
    migrate(db.$client);
    // A user made here is a break-glass account: it signs in with its password even where
    // password sign-in is off (docs/deploy.md "Break-glass accounts").
    const user = await createUser(db, systemClock, { email, name, password, role }, { breakGlass: true });
    process.stdout.write(`created ${user.role} ${user.email} (${user.id}), a break-glass account\n`);
    return 0;
  } catch (err) {
    if (err instanceof HttpError) throw new CliError(err.message);
    throw err;
  } finally {
    db.$client.close();
  }
}

async function promptPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    // Piped input: first line is the password (scripts), so a CI run never hangs on a prompt.
    const text = await Bun.stdin.text();
    const line = text.split(/\r?\n/)[0] ?? "";
    if (!line) throw new CliError("no password: set PHRASEBOOK_PASSWORD or type it at the prompt");
    return line;
  }
  // Typed passwords must not show on the screen (or in a terminal recording): echo off meanwhile.
  const stty = (arg: string) => Bun.spawnSync(["stty", arg], { stdin: "inherit", stdout: "ignore", stderr: "ignore" });
  stty("-echo");
  let answer: string | null;
  try {
    answer = prompt("Password:");
  } finally {
    stty("echo");
    process.stdout.write("\n");
  }
  if (!answer) throw new CliError("no password given");
  return answer;
}
