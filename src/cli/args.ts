import { CliError } from "../common/errors.ts";
import { SETTINGS } from "../config/settings.ts";

/**
 * Splits argv into the command words and `--flag value` / `--flag=value` pairs. Which flags exist,
 * whether they take a value and which commands take them is one table, so `--port 9000 serve` and
 * `push --dry-run app_en.arb` read alike. A flag the command does not take is an error, so a typo
 * never silently falls back to a default.
 */
export interface ParsedArgs {
  words: string[];
  /** The last value of each flag given. */
  flags: Record<string, string>;
  /** Every value of each flag, in order (`--language de --language fr`). */
  lists: Record<string, string[]>;
  /** Flags that take no value (`--dry-run`). */
  switches: Set<string>;
  help: boolean;
  /** Options no command knows, for the command to refuse with its own exit code. */
  unknown: string[];
}

type Kind = "value" | "switch";

/** The client commands (docs/product.md §6): their usage errors exit 1. */
export const CLIENT_COMMANDS = ["push", "pull", "publish", "status", "rollback", "promote", "diff", "screenshots"] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

const SERVER_COMMANDS = ["serve", "demo", "backup", "restore", "user"];

const CONNECTION = ["--server", "--token"];

/** Every flag: what it takes and which commands take it. */
const FLAGS: Record<string, { kind: Kind; commands: readonly string[] }> = {
  ...Object.fromEntries(SETTINGS.map((s) => [s.flag, { kind: "value" as Kind, commands: SERVER_COMMANDS }])),
  "--email": { kind: "value", commands: ["user"] },
  "--role": { kind: "value", commands: ["user"] },
  "--name": { kind: "value", commands: ["user", "publish", "rollback"] },
  "--server": { kind: "value", commands: CLIENT_COMMANDS },
  "--token": { kind: "value", commands: CLIENT_COMMANDS },
  "--config": { kind: "value", commands: ["push", "pull", "publish", "status"] },
  "--cdn-url": { kind: "value", commands: ["pull"] },
  "--no-fallback-files": { kind: "switch", commands: ["pull"] },
  "--add-languages": { kind: "switch", commands: ["push"] },
  "--language": { kind: "value", commands: ["push", "pull"] },
  "--format": { kind: "value", commands: ["push", "pull"] },
  "--dry-run": { kind: "switch", commands: ["push"] },
  "--delete-missing": { kind: "switch", commands: ["push"] },
  "--translations": { kind: "switch", commands: ["push"] },
  "--release": { kind: "value", commands: ["pull", "promote", "diff"] },
  "--to": { kind: "value", commands: ["rollback"] },
  "--channel": { kind: "value", commands: ["promote"] },
  "--against": { kind: "value", commands: ["diff"] },
  "--out": { kind: "value", commands: ["pull"] },
  "--xliff-version": { kind: "value", commands: ["pull"] },
  "--tag": { kind: "value", commands: ["publish", "rollback"] },
  "--min-progress": { kind: "value", commands: ["status"] },
  "--fail-on-errors": { kind: "switch", commands: ["push", "status"] },
};

export function parseArgs(argv: string[]): ParsedArgs {
  const parsed: ParsedArgs = { words: [], flags: {}, lists: {}, switches: new Set(), help: false, unknown: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      parsed.help = true;
      continue;
    }
    if (arg === "--version") {
      parsed.words.push("version");
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      parsed.words.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = FLAGS[name];
    if (!flag) {
      parsed.unknown.push(name);
      continue;
    }
    if (flag.kind === "switch") {
      if (eq !== -1) throw new CliError(`option ${name} takes no value`, 1);
      parsed.switches.add(name);
      continue;
    }
    let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new CliError(`option ${name} needs a value`, exitCodeFor(parsed.words[0]));
    }
    parsed.flags[name] = value;
    (parsed.lists[name] ??= []).push(value);
  }
  return parsed;
}

/** Usage errors of the client exit 1 (docs/product.md §6); the server's commands keep their 2. */
export function exitCodeFor(command: string | undefined): 1 | 2 {
  return (CLIENT_COMMANDS as readonly string[]).includes(command ?? "") ? 1 : 2;
}

/** Refuses options that `command` does not take. */
export function checkFlags(command: string, args: ParsedArgs): void {
  const code = exitCodeFor(command);
  const see = code === 1 ? `phrasebook ${command} --help` : "phrasebook --help";
  const unknown = args.unknown[0];
  if (unknown !== undefined) throw new CliError(`unknown option ${unknown} (see ${see})`, code);
  for (const name of [...Object.keys(args.flags), ...args.switches]) {
    if (!FLAGS[name]!.commands.includes(command)) throw new CliError(`${command} does not take ${name} (see ${see})`, code);
  }
}

export function usage(version: string): string {
  const settings = SETTINGS.map((s) => `  ${s.env.padEnd(32)} ${s.flag.padEnd(24)} ${s.help}`).join("\n");
  return `phrasebook ${version}: translations for apps, self-hosted

Usage:
  phrasebook [serve]                      run the dashboard, API, CDN and webhook sender on one port
  phrasebook demo                         like serve, but first fill an empty data dir with a demo project
  phrasebook user create --email E --name N [--role admin|member]
                                          add a dashboard user (password from PHRASEBOOK_PASSWORD or a prompt)
  phrasebook backup FILE                  consistent online copy of the database and release files
  phrasebook restore                      bring back a data dir from the replica (PHRASEBOOK_REPLICA_URL)
  phrasebook version                      print the version
  phrasebook --help                       this text

As a client of a Phrasebook server, for CI (PHRASEBOOK_SERVER and PHRASEBOOK_TOKEN, or --server and --token):
  phrasebook push [FILE...]               import translation files (default: those of phrasebook.yaml)
  phrasebook pull                         write the files of the latest release (or --release TAG)
  phrasebook publish --name N --tag T     create a release and publish it
  phrasebook status                       progress and message problems per language; a CI gate
  phrasebook rollback --to T --tag NEW    republish an earlier release as a new one: latest serves it
  phrasebook promote --channel C --release T
                                          point a channel (staging, production) at a release
  phrasebook diff [--release T] [--against T]
                                          what a release (default: the newest draft) changes
  phrasebook screenshots push DIR         upload the screenshots of DIR, with their keys from NAME.json
  phrasebook <command> --help             every option of a client command, with examples

Settings (environment variable, or the flag that overrides it):
${settings}
`;
}
