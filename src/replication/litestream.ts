import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { CliError } from "../common/errors.ts";
import { log } from "../common/log.ts";
import type { ObjectLocation } from "../targets/object-store.ts";

/**
 * Litestream, run by Phrasebook (docs/deploy.md "Continuous replication"): the configuration is
 * made from Phrasebook's own settings, so the database path, the replica and the release copies
 * can never disagree.
 */
export const REPLICA_DB_DIR = "db";

/**
 * How often Litestream looks at the write-ahead log. With the replica's sync interval it bounds
 * the recovery point: a commit reaches the replica within about monitor + sync interval + one copy.
 */
const MONITOR_INTERVAL_MS = 100;

function duration(seconds: number): string {
  return `${Math.round(seconds * 1000)}ms`;
}

/** YAML of a string: JSON's quoting is valid YAML. */
const q = (value: string) => JSON.stringify(value);

export function litestreamConfig(dbPath: string, target: ObjectLocation, syncIntervalSeconds: number): string {
  const replica =
    target.kind === "folder"
      ? [`      - type: file`, `        path: ${q(join(target.path, REPLICA_DB_DIR))}`]
      : [
          `      - type: s3`,
          `        bucket: ${q(target.bucket)}`,
          `        path: ${q(target.path ? `${target.path}/${REPLICA_DB_DIR}` : REPLICA_DB_DIR)}`,
          ...(target.endpoint ? [`        endpoint: ${q(target.endpoint)}`, `        force-path-style: true`] : []),
          ...(target.region ? [`        region: ${q(target.region)}`] : []),
        ];
  return [
    `# Written by phrasebook from its settings (docs/deploy.md "Continuous replication").`,
    `dbs:`,
    `  - path: ${q(dbPath)}`,
    `    monitor-interval: ${MONITOR_INTERVAL_MS}ms`,
    `    replicas:`,
    ...replica,
    `        sync-interval: ${duration(syncIntervalSeconds)}`,
    ``,
  ].join("\n");
}

/** A config file only this user can read, in a folder of its own; removed by the returned function. */
function writeConfig(config: string): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "phrasebook-litestream-"));
  const path = join(dir, "litestream.yml");
  writeFileSync(path, config, { mode: 0o600 });
  chmodSync(dir, 0o700);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The litestream executable, or one clear line naming the setting. */
export function findLitestream(bin: string): string {
  const found = bin.includes("/") ? (isExecutable(bin) ? bin : null) : Bun.which(bin);
  if (!found) {
    throw new CliError(`PHRASEBOOK_LITESTREAM: cannot find the litestream executable ${JSON.stringify(bin)}; install it (docs/deploy.md "Continuous replication") or set PHRASEBOOK_LITESTREAM to its path`);
  }
  return found;
}

/**
 * Litestream's scheduling priority, raised where the system allows it (root, or CAP_SYS_NICE;
 * elsewhere it stays as it was, silently): on a machine busy with a publish or anything else, its
 * copies would otherwise wait for the CPU and stretch the recovery point past a second. It uses
 * little CPU, so nothing else loses by it (docs/deploy.md "Continuous replication").
 */
const LITESTREAM_NICE = -5;

/**
 * Litestream must not outlive Phrasebook: a second one started beside it after a crash would
 * replicate the same database twice. This shell keeps its standard input, a pipe from Phrasebook,
 * and stops Litestream (SIGTERM: it copies what is left, then exits) when the pipe closes, which
 * happens however Phrasebook ends, SIGKILL included. It exits with Litestream's status.
 */
const GUARD = `exec 3<&0
"$@" </dev/null 3<&- &
child=$!
renice -n ${LITESTREAM_NICE} -p "$child" >/dev/null 2>&1 || :
{ while read -r _; do :; done; kill -TERM "$child" 2>/dev/null; } <&3 &
watcher=$!
exec 3<&-
wait "$child"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

export interface Replicator {
  stop(): Promise<void>;
}

const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Runs `litestream replicate` for the database and restarts it when it stops on its own (with a
 * growing delay, reset after a minute of running). Its log lines go into Phrasebook's log.
 */
export function startReplicator(bin: string, dbPath: string, target: ObjectLocation, syncIntervalSeconds: number): Replicator {
  const config = writeConfig(litestreamConfig(dbPath, target, syncIntervalSeconds));
  let proc: Subprocess<"pipe", "pipe", "pipe"> | undefined;
  let stopping = false;
  let failures = 0;
  let timer: Timer | undefined;

  const forward = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      rest += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = rest.indexOf("\n")) !== -1) {
        const line = rest.slice(0, nl).trim();
        rest = rest.slice(nl + 1);
        if (!line) continue;
        if (/level=(ERROR|WARN)/.test(line)) log.warn("litestream", { line });
        else log.info("litestream", { line });
      }
    }
  };

  const launch = () => {
    const started = Date.now();
    const child = Bun.spawn(["/bin/sh", "-c", GUARD, "litestream-guard", bin, "replicate", "-config", config.path], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    proc = child;
    void forward(child.stdout);
    void forward(child.stderr);
    log.info("replication started", { pid: child.pid, replica: target.kind });
    void child.exited.then((code) => {
      if (stopping) return;
      failures = Date.now() - started > 60_000 ? 1 : failures + 1; // a minute of running starts over
      const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length) - 1]!;
      // Reported when the restart is due: a Ctrl-C in a terminal reaches Litestream too, and the
      // shutdown that follows it clears this timer, so a stop is not reported as a failure.
      timer = setTimeout(() => {
        log.error("litestream stopped; restarting it", { exit_code: code, stopped_ms_ago: delay });
        launch();
      }, delay);
    });
  };
  launch();

  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      if (proc && proc.exitCode === null) {
        try {
          proc.stdin.end(); // the guard stops Litestream, which copies what is left first
        } catch {
          // the guard is gone already
        }
        await proc.exited;
      }
      config.remove();
    },
  };
}

/** `litestream restore` of the replica's newest state into `outputPath`. */
export async function restoreDatabase(bin: string, dbPath: string, target: ObjectLocation, outputPath: string): Promise<void> {
  const config = writeConfig(litestreamConfig(dbPath, target, 1));
  try {
    const proc = Bun.spawn([bin, "restore", "-config", config.path, "-o", outputPath, dbPath], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) {
      const last = `${err}\n${out}`.split("\n").map((l) => l.trim()).filter(Boolean).pop() ?? `exit code ${code}`;
      const why = /error="([^"]*)"/.exec(last)?.[1] ?? last;
      throw new CliError(`litestream restore failed: ${why}${why.includes("no matching backups") ? " (is PHRASEBOOK_REPLICA_URL the replica this server wrote?)" : ""}`);
    }
  } finally {
    config.remove();
    // Litestream leaves the shared-memory and log files of its working copy behind.
    for (const suffix of [".tmp-shm", ".tmp-wal"]) rmSync(outputPath + suffix, { force: true });
  }
}
