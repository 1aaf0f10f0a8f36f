#!/usr/bin/env bun
/** CLI -> settings -> command. Boring on purpose; every command lives in its own module under cli/. */
import pkg from "../package.json" with { type: "json" };
import { isMainThread } from "node:worker_threads";
import { checkFlags, CLIENT_COMMANDS, COMMAND_HELP, parseArgs, usage, type ClientCommand } from "./cli/args.ts";
import { runBackup } from "./cli/backup.ts";
import { runPull } from "./cli/client/pull.ts";
import { runPublish } from "./cli/client/publish.ts";
import { runPush } from "./cli/client/push.ts";
import { runStatus } from "./cli/client/status.ts";
import { demoBanner, prepareDemo } from "./cli/demo.ts";
import { runUserCreate } from "./cli/user-create.ts";
import { CliError } from "./common/errors.ts";
import { log } from "./common/log.ts";
import { serveWorker } from "./dashboard-api/worker.ts";
import { loadSettings } from "./config/settings.ts";
import { startServer } from "./server.ts";

export const VERSION: string = pkg.version;

async function serve(flags: Record<string, string>): Promise<void> {
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

const isClientCommand = (command: string): command is ClientCommand => (CLIENT_COMMANDS as readonly string[]).includes(command);

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command = "serve", sub] = args.words;
  if (args.help || command === "help") {
    process.stdout.write(isClientCommand(command) ? COMMAND_HELP[command] : usage(VERSION));
    return 0;
  }
  checkFlags(command, args);
  switch (command) {
    case "version":
      process.stdout.write(`phrasebook ${VERSION}\n`);
      return 0;
    case "serve":
      await serve(args.flags);
      return -1; // keeps running
    case "demo": {
      const settings = loadSettings(process.env, args.flags);
      const outcome = await prepareDemo(settings);
      await serve(args.flags);
      process.stdout.write(demoBanner(outcome, settings));
      return -1;
    }
    case "backup":
      if (args.words.length > 2) throw new CliError("backup takes one FILE");
      return runBackup(sub, args.flags);
    case "user":
      if (sub !== "create") throw new CliError(`unknown command "user ${sub ?? ""}"; did you mean "user create"?`);
      return runUserCreate(args.flags);
    // The same executable is the client of a server (docs/product.md §6).
    case "push":
      return runPush(args);
    case "pull":
      return runPull(args);
    case "publish":
      return runPublish(args);
    case "status":
      return runStatus(args);
    default:
      throw new CliError(`unknown command "${command}" (see phrasebook --help)`);
  }
}

function run(argv: string[]): void {
  main(argv).then(
    (code) => {
      if (code >= 0) process.exit(code);
    },
    (err: unknown) => {
      if (err instanceof CliError) {
        process.stderr.write(`phrasebook: ${err.message}\n`);
        process.exit(err.exitCode);
      }
      const e = err as NodeJS.ErrnoException;
      if (e?.code === "EADDRINUSE") {
        process.stderr.write(`phrasebook: the port is already in use (set PHRASEBOOK_PORT or --port)\n`);
        process.exit(2);
      }
      // Never a stack trace: one line, and the exit code of a failed command of its kind.
      process.stderr.write(`phrasebook: ${e?.message ?? String(err)}\n`);
      process.exit(1);
    },
  );
}

// In the compiled executable every module is bundled into this one, so a worker thread (a large
// import, docs/publishing.md §6) starts here too, and serves its task instead of a command.
if (isMainThread) run(process.argv.slice(2));
else serveWorker();
