/**
 * Starts the real server as a child process on a free port with a temporary data dir, the way an
 * operator runs it. Tests talk HTTP to it and may open its SQLite file read-only to check rows.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = join(import.meta.dir, "..", "..");
export const ADMIN_EMAIL = "admin@example.test";
export const ADMIN_PASSWORD = "correct horse battery";

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  proc: Subprocess;
  output(): string;
  /** Read-only view of the server's database (WAL lets us read while it writes). */
  query<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): T[];
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

export function tempDir(prefix = "phrasebook-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The command that runs the server: the compiled binary when make test built one, else source. */
export function serverCommand(executable?: string): string[] {
  if (executable) return [executable];
  const bin = process.env.PHRASEBOOK_BIN;
  if (bin && process.env.PHRASEBOOK_TEST_SOURCE !== "1") return [bin];
  return [process.execPath, join(ROOT, "src", "main.ts")];
}

export interface StartOptions {
  /** The port to listen on (chosen first when the URL must be known before the start: a provider's redirect URI); default a free one. */
  port?: number;
  env?: Record<string, string>;
  dataDir?: string;
  args?: string[];
  /** Wait for this log message before returning (default "listening"). */
  readyMessage?: string;
  keepDataDir?: boolean;
  /**
   * Runs the server in a process group of its own, so `kill` ends it with every process it started
   * at the same instant, as when the machine is lost (test/replication/recovery.test.ts).
   */
  ownProcessGroup?: boolean;
  /** An executable to run instead of PHRASEBOOK_BIN's (a benchmark's builds side by side). */
  bin?: string;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  mkdirSync(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    PHRASEBOOK_HOST: "127.0.0.1",
    PHRASEBOOK_PORT: String(port),
    PHRASEBOOK_DATA_DIR: dataDir,
    PHRASEBOOK_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PHRASEBOOK_ADMIN_EMAIL: ADMIN_EMAIL,
    PHRASEBOOK_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Tests that set up hundreds of keys one by one would meet the write budget; its own tests set it.
    PHRASEBOOK_WRITE_RATE_LIMIT: "1000000",
    ...options.env,
  };
  const proc = Bun.spawn([...serverCommand(options.bin), ...(options.args ?? ["serve"])], { env, stdout: "pipe", stderr: "pipe", cwd: dataDir, detached: options.ownProcessGroup === true });
  let out = "";
  const ready = options.readyMessage ?? "listening";
  const decoder = new TextDecoder();
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>((r) => (resolveReady = r));
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      out += decoder.decode(chunk, { stream: true });
      if (out.includes(`"msg":"${ready}"`)) resolveReady();
    }
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  const exited = proc.exited.then((code) => {
    throw new Error(`server exited with ${code} before it was ready:\n${out}`);
  });
  const timeout = Bun.sleep(15_000).then(() => {
    throw new Error(`server not ready after 15 s:\n${out}`);
  });
  await Promise.race([readyPromise, exited, timeout]);
  exited.catch(() => {});
  timeout.catch(() => {});

  let db: Database | undefined;
  const server: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    env,
    proc,
    output: () => out,
    query<T>(sql: string, ...params: (string | number | null)[]) {
      db ??= new Database(join(dataDir, "phrasebook.db"), { readonly: true });
      return db.query(sql).all(...params) as T[];
    },
    async stop() {
      db?.close();
      db = undefined;
      proc.kill("SIGTERM");
      await proc.exited;
      if (!options.keepDataDir && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill(signal: NodeJS.Signals = "SIGKILL") {
      db?.close();
      db = undefined;
      if (options.ownProcessGroup) process.kill(-proc.pid, signal);
      else proc.kill(signal);
      await proc.exited;
    },
  };
  return server;
}
