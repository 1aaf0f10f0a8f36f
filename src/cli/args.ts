import { CliError } from "../common/errors.ts";
import { SETTINGS } from "../config/settings.ts";

/**
 * Splits argv into the command words and `--flag value` / `--flag=value` pairs. Unknown flags are
 * an error here, so a typo never silently falls back to a default.
 */
export interface ParsedArgs {
  words: string[];
  flags: Record<string, string>;
  help: boolean;
}

const COMMAND_FLAGS = new Set(["--email", "--name", "--role"]);
const SETTING_FLAGS = new Set(SETTINGS.map((s) => s.flag));

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const flags: Record<string, string> = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (arg === "--version") {
      words.push("version");
      continue;
    }
    if (!arg.startsWith("--")) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!SETTING_FLAGS.has(name) && !COMMAND_FLAGS.has(name)) throw new CliError(`unknown option ${name} (see phrasebook --help)`);
    let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new CliError(`option ${name} needs a value`);
    }
    flags[name] = value;
  }
  return { words, flags, help };
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
  phrasebook version                      print the version
  phrasebook --help                       this text

Settings (environment variable, or the flag that overrides it):
${settings}
`;
}
