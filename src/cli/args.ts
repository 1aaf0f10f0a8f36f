import { CliError } from "../common/errors.ts";

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

/** Flags: what each takes and which commands take it. */
export type FlagTable = Readonly<Record<string, { kind: Kind; commands: readonly string[] }>>;

/** The client commands (docs/product.md §6): their usage errors exit 1. */
export const CLIENT_COMMANDS = ["push", "pull", "publish", "status", "rollback", "promote", "diff", "languages", "builds", "verify", "signing-key", "screenshots"] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

/**
 * The client commands' flags: all the Node client knows (./client/node.ts). The executable adds
 * the server's (./usage.ts), so the Node client carries no settings table.
 */
export const CLIENT_FLAGS: FlagTable = {
  "--name": { kind: "value", commands: ["publish", "rollback", "builds"] },
  "--server": { kind: "value", commands: CLIENT_COMMANDS },
  "--token": { kind: "value", commands: CLIENT_COMMANDS },
  "--config": { kind: "value", commands: CLIENT_COMMANDS },
  "--cdn-url": { kind: "value", commands: ["pull", "verify", "signing-key"] },
  "--no-fallback-files": { kind: "switch", commands: ["pull"] },
  "--force": { kind: "switch", commands: ["pull"] },
  "--add-languages": { kind: "switch", commands: ["push"] },
  "--language": { kind: "value", commands: ["push", "pull"] },
  "--format": { kind: "value", commands: ["push", "pull"] },
  "--dry-run": { kind: "switch", commands: ["push"] },
  "--delete-missing": { kind: "switch", commands: ["push"] },
  "--translations": { kind: "switch", commands: ["push"] },
  "--release": { kind: "value", commands: ["pull", "promote", "diff", "verify"] },
  "--to": { kind: "value", commands: ["rollback"] },
  "--channel": { kind: "value", commands: ["promote", "verify"] },
  // docs/delivery.md "Verification".
  "--manifest": { kind: "value", commands: ["verify"] },
  "--build": { kind: "value", commands: ["verify"] },
  "--public-key": { kind: "value", commands: ["verify"] },
  "--against": { kind: "value", commands: ["diff"] },
  "--out": { kind: "value", commands: ["pull"] },
  "--xliff-version": { kind: "value", commands: ["pull"] },
  "--tag": { kind: "value", commands: ["publish", "rollback"] },
  "--min-progress": { kind: "value", commands: ["status"] },
  "--fail-on-errors": { kind: "switch", commands: ["push", "status"] },
};

export function parseArgs(argv: string[], flags: FlagTable = CLIENT_FLAGS): ParsedArgs {
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
    if (arg === "--") {
      // Everything after `--` is a word, as POSIX utilities and node:util's parseArgs read it.
      parsed.words.push(...argv.slice(i + 1));
      break;
    }
    if (/^-[^-]/.test(arg)) {
      parsed.unknown.push(arg); // no command takes a short option but -h
      continue;
    }
    if (!arg.startsWith("--")) {
      parsed.words.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = flags[name];
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
      if (value === undefined) throw new CliError(`option ${name} needs a value`, 1);
    }
    parsed.flags[name] = value;
    (parsed.lists[name] ??= []).push(value);
  }
  return parsed;
}

/**
 * Refuses options that `command` does not take. Bad usage exits 1 for every command
 * (docs/product.md §6); a setting with a bad value stops the server's start with 2 (§1).
 */
export function checkFlags(command: string, args: ParsedArgs, flags: FlagTable = CLIENT_FLAGS): void {
  const see = (CLIENT_COMMANDS as readonly string[]).includes(command) ? `phrasebook ${command} --help` : "phrasebook --help";
  const unknown = args.unknown[0];
  if (unknown !== undefined) throw new CliError(`unknown option ${unknown} (see ${see})`, 1);
  for (const name of [...Object.keys(args.flags), ...args.switches]) {
    if (!flags[name]!.commands.includes(command)) throw new CliError(`${command} does not take ${name} (see ${see})`, 1);
  }
}
