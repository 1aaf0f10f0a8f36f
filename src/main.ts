#!/usr/bin/env bun
/**
 * CLI -> settings -> command. Boring on purpose; every command lives in its own module under cli/,
 * loaded when it runs and not before: `version`, `--help` and the client commands never load the
 * server, and the server loads no command (docs/architecture.md "Start-up").
 */
import pkg from "../package.json" with { type: "json" };
import { checkFlags, CLIENT_COMMANDS, parseArgs, type ClientCommand, type ParsedArgs } from "./cli/args.ts";
import { FLAGS, usage } from "./cli/usage.ts";
import { print, printError } from "./cli/output.ts";
import { CliError } from "./common/errors.ts";

const VERSION: string = pkg.version;

async function serve(flags: Record<string, string>): Promise<void> {
  const [{ loadSettings }, { startServer }, { log }] = await Promise.all([import("./config/settings.ts"), import("./server.ts"), import("./common/log.ts")]);
  const settings = loadSettings(process.env, flags);
  const running = await startServer(settings);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await running.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

async function demo(flags: Record<string, string>): Promise<void> {
  const [{ loadSettings }, { demoBanner, portIsFree, prepareDemo }] = await Promise.all([import("./config/settings.ts"), import("./cli/demo.ts")]);
  const settings = loadSettings(process.env, flags);
  // Nothing is seeded for a server that cannot listen (docs/product.md §1).
  if (!(await portIsFree(settings.host, settings.port))) throw Object.assign(new Error("port in use"), { code: "EADDRINUSE" });
  const outcome = await prepareDemo(settings);
  await serve(flags);
  // After the server's "listening" line, on the same stream as the log (src/cli/output.ts).
  process.stdout.write(demoBanner(outcome, settings));
}

const isClientCommand = (command: string): command is ClientCommand => (CLIENT_COMMANDS as readonly string[]).includes(command);

/** The exit code of a command, or -1 for one that keeps running (serve, demo). */
async function main(argv: string[]): Promise<number> {
  const args: ParsedArgs = parseArgs(argv, FLAGS);
  const [command = "serve", sub] = args.words;
  if (args.help || command === "help") {
    await print(isClientCommand(command) ? (await import("./cli/help.ts")).COMMAND_HELP[command] : usage(VERSION));
    return 0;
  }
  checkFlags(command, args, FLAGS);
  switch (command) {
    case "version":
      await print(`phrasebook ${VERSION}\n`);
      return 0;
    case "serve":
      await serve(args.flags);
      return -1;
    case "demo":
      await demo(args.flags);
      return -1;
    case "backup":
      if (args.words.length > 2) throw new CliError("backup takes one FILE", 1);
      return (await import("./cli/backup.ts")).runBackup(sub, args.flags);
    case "restore":
      if (args.words.length > 1) throw new CliError("restore takes no argument: the replica is PHRASEBOOK_REPLICA_URL (or --replica-url), the target PHRASEBOOK_DATA_DIR", 1);
      return (await import("./cli/restore.ts")).runRestore(args.flags);
    case "mirror":
      if (sub !== "sync" || args.words.length > 2) throw new CliError(`unknown command "mirror ${args.words.slice(1).join(" ")}"; did you mean "mirror sync"?`);
      return (await import("./cli/mirror-sync.ts")).runMirrorSync(args.flags, args.switches.has("--no-delete"));
    case "user":
      if (sub !== "create") throw new CliError(`unknown command "user ${sub ?? ""}"; did you mean "user create"?`, 1);
      return (await import("./cli/user-create.ts")).runUserCreate(args.flags);
    // The same executable is the client of a server (docs/product.md §6).
    // Each command's own import() is its own chunk, loaded when it runs (docs/architecture.md
    // "Start-up"); the Node client runs the same modules (cli/client/run.ts).
    case "push":
      return (await import("./cli/client/push.ts")).runPush(args);
    case "pull":
      return (await import("./cli/client/pull.ts")).runPull(args);
    case "publish":
      return (await import("./cli/client/publish.ts")).runPublish(args);
    case "status":
      return (await import("./cli/client/status.ts")).runStatus(args);
    case "rollback":
      return (await import("./cli/client/rollback.ts")).runRollback(args);
    case "promote":
      return (await import("./cli/client/promote.ts")).runPromote(args);
    case "diff":
      return (await import("./cli/client/diff.ts")).runDiff(args);
    case "screenshots":
      return (await import("./cli/client/screenshots.ts")).runScreenshots(args);
    case "languages":
      return (await import("./cli/client/languages.ts")).runLanguages(args);
    case "builds":
      return (await import("./cli/client/builds.ts")).runBuilds(args);
    case "verify":
      return (await import("./cli/client/verify.ts")).runVerify(args);
    case "signing-key":
      return (await import("./cli/client/signing-key.ts")).runSigningKey(args);
    default:
      // Bad usage, like every other (docs/product.md §6).
      throw new CliError(`unknown command "${command}" (see phrasebook --help)`, 1);
  }
}

/** Never a stack trace: one line, and the exit code of a failed command of its kind. */
async function failed(err: unknown): Promise<number> {
  if (err instanceof CliError) {
    await printError(`phrasebook: ${err.message}\n`);
    return err.exitCode;
  }
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "EADDRINUSE") {
    await printError(`phrasebook: the port is already in use (set PHRASEBOOK_PORT or --port)\n`);
    return 2;
  }
  await printError(`phrasebook: ${e?.message ?? String(err)}\n`);
  return 1;
}

function run(argv: string[]): void {
  main(argv)
    .catch(failed)
    .then((code) => {
      if (code >= 0) process.exit(code);
    });
}

// In the compiled executable a worker thread (a large import, docs/publishing.md §6) starts from
// this entry too, and serves its task instead of a command.
if (Bun.isMainThread) run(process.argv.slice(2));
else void import("./dashboard-api/worker.ts").then(({ serveWorker }) => serveWorker());
