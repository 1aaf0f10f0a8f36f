/**
 * The command-line client as CI runs it (product §6): the compiled executable, in a real git
 * repository in a temp dir, against a server started by the test. Without PHRASEBOOK_BIN (a run
 * outside `make test`), the executable is built once per test process from the source.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ROOT, startServer, type StartOptions, type TestServer } from "../helpers/server.ts";

let built: string | undefined;

/** The compiled executable: make test's, or one built now. */
export function clientBinary(): string {
  if (process.env.PHRASEBOOK_BIN) return process.env.PHRASEBOOK_BIN;
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), "phrasebook-client-bin-"));
  const out = join(dir, "phrasebook");
  const r = Bun.spawnSync([process.execPath, "build", "--compile", "--minify-whitespace", "--minify-syntax", join(ROOT, "src", "main.ts"), "--outfile", out], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`building the executable failed: ${r.stderr.toString()}`);
  built = out;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return out;
}

export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Run on a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
  tty?: boolean;
}

/** Runs `phrasebook <args>` to completion, with only PATH, HOME and `env` in its environment. */
export async function phrasebook(args: string[], options: RunOptions): Promise<ClientRun> {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...options.env };
  const command = options.tty ? ["script", "-qfec", [clientBinary(), ...args].map(shellQuote).join(" "), "/dev/null"] : [clientBinary(), ...args];
  const proc = Bun.spawn(command, { cwd: options.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function shellQuote(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A git repository with these files committed. */
export function gitRepo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "phrasebook-repo-"));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "ci@example.test");
  git(dir, "config", "user.name", "CI");
  writeFiles(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "strings");
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export function git(dir: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** `git status --porcelain`, one entry a line: what a run changed in the working tree. */
export function changedFiles(dir: string): string[] {
  return git(dir, "status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).sort();
}

export interface Deployment {
  server: TestServer;
  admin: DashboardClient;
  pid: string;
  /** A token with read, write and publish: what a CI job that pushes, publishes and pulls holds. */
  token: string;
  /** The environment a CI job sets: server and token. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A server with a project (base `en` and the extra languages) and a CI token with every scope. */
export async function deployment(languages: string[], options: StartOptions = {}): Promise<Deployment> {
  const server = await startServer({ ...options, env: { PHRASEBOOK_LOG_REQUESTS: "false", ...options.env } });
  const admin = await DashboardClient.loggedIn(server.url);
  const pid = await admin.project("App", "en", languages);
  const made = await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["read", "write", "publish"] });
  if (made.status !== 201) throw new Error(`token: ${JSON.stringify(made.body)}`);
  return {
    server,
    admin,
    pid,
    token: made.body.token,
    env: { PHRASEBOOK_SERVER: server.url, PHRASEBOOK_TOKEN: made.body.token },
    stop: () => server.stop(),
  };
}

/** Sets `values` ({key: value}) in a language through the dashboard API, as a translator would. */
export async function translate(d: Deployment, code: string, values: Record<string, string>): Promise<void> {
  const keys = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items as { id: string; key: string }[];
  for (const [key, value] of Object.entries(values)) {
    const id = keys.find((k) => k.key === key)?.id;
    if (!id) throw new Error(`no key ${key}`);
    const r = await d.admin.put(`/projects/${d.pid}/keys/${id}/translations/${code}`, { value });
    if (r.status !== 200) throw new Error(`translate ${key}: ${JSON.stringify(r.body)}`);
  }
}
