import { CliError } from "../common/errors.ts";
import { SETTINGS } from "../config/settings.ts";
import { extensionsHelp, orList, PULL_FORMATS, PUSH_FORMATS } from "./client/formats.ts";

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
export const CLIENT_COMMANDS = ["push", "pull", "publish", "status"] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

const SERVER_COMMANDS = ["serve", "demo", "backup", "user"];

const CONNECTION = ["--server", "--token"];

/** Every flag: what it takes and which commands take it. */
const FLAGS: Record<string, { kind: Kind; commands: readonly string[] }> = {
  ...Object.fromEntries(SETTINGS.map((s) => [s.flag, { kind: "value" as Kind, commands: SERVER_COMMANDS }])),
  "--email": { kind: "value", commands: ["user"] },
  "--role": { kind: "value", commands: ["user"] },
  "--name": { kind: "value", commands: ["user", "publish"] },
  "--server": { kind: "value", commands: CLIENT_COMMANDS },
  "--token": { kind: "value", commands: CLIENT_COMMANDS },
  "--config": { kind: "value", commands: ["push", "pull", "status"] },
  "--language": { kind: "value", commands: ["push", "pull"] },
  "--format": { kind: "value", commands: ["push", "pull"] },
  "--dry-run": { kind: "switch", commands: ["push"] },
  "--delete-missing": { kind: "switch", commands: ["push"] },
  "--translations": { kind: "switch", commands: ["push"] },
  "--release": { kind: "value", commands: ["pull"] },
  "--out": { kind: "value", commands: ["pull"] },
  "--tag": { kind: "value", commands: ["publish"] },
  "--min-progress": { kind: "value", commands: ["status"] },
  "--fail-on-errors": { kind: "switch", commands: ["status"] },
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

const CONNECTION_HELP = `Connection (every client command):
  --server URL          the Phrasebook server's public origin, e.g. https://i18n.example.com
                        (default: PHRASEBOOK_SERVER, else "server" in phrasebook.yaml)
  --token TOKEN         an API token of the project (default: PHRASEBOOK_TOKEN; prefer the variable:
                        a flag shows in the process list and in shell history)
`;

const EXIT_CODES = `Exit codes: 0 done; 1 bad usage or a bad local file; 2 the server refused or could not be reached;
3 a check failed.
`;

/** `phrasebook <command> --help`: every flag of the command with an example; the formats are the registry's (docs/formats.md). */
export const COMMAND_HELP: Record<ClientCommand, string> = {
  push: `Usage: phrasebook push [FILE...] [--language CODE] [--format ${PUSH_FORMATS.join("|")}] [--dry-run] [--delete-missing]
                       [--translations] [--config FILE]

Imports translation files into the token's project (the token needs the write scope). Each file
sets one language: new keys are created, changed values updated, equal ones left alone.

  FILE...               the files to push; with none, the files of phrasebook.yaml: each "source"
                        as the base language, and with --translations every "translations" file
                        that exists
  --language CODE       the language of the files (e.g. de, pt-BR); default: the ARB file's @@locale,
                        else the {language} or {locale} part of a pattern in phrasebook.yaml that
                        the file's path matches
  --format FORMAT       ${orList(PUSH_FORMATS)}; default: from the extension (${extensionsHelp(PUSH_FORMATS)})
  --dry-run             change nothing: print what would change, one "+ key" (created), "~ key"
                        (updated) or "- key" (deleted) line each
  --delete-missing      also delete the project's keys that the file lacks (base language only);
                        try it with --dry-run first
  --translations        with phrasebook.yaml: push the translation files too, not only the source
  --config FILE         the configuration file (default: ./phrasebook.yaml)

${CONNECTION_HELP}
Prints one line per file: <file>: N created, N updated, N unchanged, N deleted.

Examples:
  PHRASEBOOK_TOKEN=pb_... phrasebook push --server https://i18n.example.com
  phrasebook push lib/l10n/app_en.arb --dry-run --delete-missing
  phrasebook push locales/de.json --language de

${EXIT_CODES}`,
  pull: `Usage: phrasebook pull [--release latest|TAG|ID] [--format ${PULL_FORMATS.join("|")}] [--out PATTERN] [--language CODE]...
                       [--config FILE]

Downloads the files of a published release through the public API (the token needs the read scope)
and writes each language to PATTERN, atomically: a file is whole or untouched.

  --release WHICH       latest (default: the newest published), a release's tag (v1.4.0) or its id
  --format FORMAT       ${orList(PULL_FORMATS)}; default: from the extension of the pattern
  --out PATTERN         where to write; {language} is the language code (pt-BR) and {locale} the
                        same with underscores (pt_BR), as Flutter's gen-l10n names ARB files;
                        default: the "translations" patterns of phrasebook.yaml (whose "source"
                        file is never overwritten)
  --language CODE       only this language; repeat for more (default: every language of the release)
  --config FILE         the configuration file (default: ./phrasebook.yaml)

${CONNECTION_HELP}
Prints one line per file written.

Examples:
  phrasebook pull
  phrasebook pull --release v1.4.0 --out "lib/l10n/app_{locale}.arb"
  phrasebook pull --format json --out "public/locales/{language}.json" --language de --language fr

${EXIT_CODES}`,
  publish: `Usage: phrasebook publish --name NAME --tag TAG

Creates a release of the project's current translations and publishes it (the token needs the
publish scope). Prints its id, its tag and the "latest" URLs of its files.

  --name NAME           the release's name, e.g. "Spring update"
  --tag TAG             the release's tag, unique in the project, e.g. v1.4.0 or the commit's hash

${CONNECTION_HELP}
Example:
  phrasebook publish --name "Build $CI_PIPELINE_ID" --tag "$CI_COMMIT_SHORT_SHA"

${EXIT_CODES}`,
  status: `Usage: phrasebook status [--min-progress PCT] [--fail-on-errors]

Prints one line per language of the project: translated, approved, missing, errors, warnings (the
token needs the write or publish scope). As a gate in CI:

  --min-progress PCT    exit 3 when a language has less than PCT % of the keys translated (0-100)
  --fail-on-errors      exit 3 when any message has an error (docs: message checks)
  --config FILE         the configuration file, for its "server" (default: ./phrasebook.yaml)

${CONNECTION_HELP}
Example:
  phrasebook status --min-progress 90 --fail-on-errors

${EXIT_CODES}`,
};

export function usage(version: string): string {
  const settings = SETTINGS.map((s) => `  ${s.env.padEnd(32)} ${s.flag.padEnd(24)} ${s.help}`).join("\n");
  return `phrasebook ${version}: translations for apps, self-hosted

Usage:
  phrasebook [serve]                      run the dashboard, API, CDN and webhook sender on one port
  phrasebook demo                         like serve, but first fill an empty data dir with a demo project
  phrasebook user create --email E --name N [--role admin|member]
                                          add a dashboard user (password from PHRASEBOOK_PASSWORD or a prompt)
  phrasebook backup FILE                  consistent online copy of the database and release files
  phrasebook version                      print the version
  phrasebook --help                       this text

As a client of a Phrasebook server, for CI (PHRASEBOOK_SERVER and PHRASEBOOK_TOKEN, or --server and --token):
  phrasebook push [FILE...]               import translation files (default: those of phrasebook.yaml)
  phrasebook pull                         write the files of the latest release (or --release TAG)
  phrasebook publish --name N --tag T     create a release and publish it
  phrasebook status                       progress and message problems per language; a CI gate
  phrasebook <command> --help             every option of a client command, with examples

Settings (environment variable, or the flag that overrides it):
${settings}
`;
}
