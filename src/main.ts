#!/usr/bin/env bun
/** CLI -> settings -> command. Boring on purpose; every command lives in its own module under cli/. */
import pkg from "../package.json" with { type: "json" };
import { parseArgs, usage } from "./cli/args.ts";
import { runBackup } from "./cli/backup.ts";
import { demoBanner, prepareDemo } from "./cli/demo.ts";
import { runUserCreate } from "./cli/user-create.ts";
import { CliError } from "./common/errors.ts";
import { log } from "./common/log.ts";
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

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command = "serve", sub] = args.words;
  if (args.help || command === "help") {
    process.stdout.write(usage(VERSION));
    return 0;
  }
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
    default:
      throw new CliError(`unknown command "${command}" (see phrasebook --help)`);
  }
}

main(process.argv.slice(2)).then(
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
    process.stderr.write(`phrasebook: ${e?.message ?? String(err)}\n`);
    process.exit(1);
  },
);
