import { SETTINGS } from "../config/settings.ts";
import { CLIENT_FLAGS, type FlagTable } from "./args.ts";

/**
 * The executable's command line beyond the client's (./args.ts): the server's commands take every
 * setting as a flag (`--port 9000`), `user create` its own; and `phrasebook --help`, which lists
 * the settings. The Node client loads none of it.
 */
const SERVER_COMMANDS = ["serve", "demo", "backup", "restore", "user", "mirror"];

/** Tables of flags as one: a flag of both (`--cdn-url`, `--name`) is taken by the commands of both. */
function merged(...tables: FlagTable[]): FlagTable {
  const out: Record<string, FlagTable[string]> = {};
  for (const table of tables) {
    for (const [flag, entry] of Object.entries(table)) out[flag] = out[flag] ? { kind: entry.kind, commands: [...out[flag]!.commands, ...entry.commands] } : entry;
  }
  return out;
}

/** Every flag of the executable. */
export const FLAGS: FlagTable = merged(
  Object.fromEntries(SETTINGS.map((s) => [s.flag, { kind: "value" as const, commands: SERVER_COMMANDS }])),
  {
    "--email": { kind: "value", commands: ["user"] },
    "--role": { kind: "value", commands: ["user"] },
    "--name": { kind: "value", commands: ["user"] },
    "--no-delete": { kind: "switch", commands: ["mirror"] },
  },
  CLIENT_FLAGS,
);

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
  phrasebook mirror sync [--no-delete]    make the bucket (PHRASEBOOK_S3_BUCKET) hold exactly what the CDN serves
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
  phrasebook builds register [--name N]   register the app build being made; prints its build id
  phrasebook verify --public-key KEY [--release T | --channel C | --manifest URL] [--build ID]
                                          check a manifest's signature and every file it names
  phrasebook signing-key                  print the project's public key (its key.pub)
  phrasebook languages [list]             the project's languages
  phrasebook languages add CODE...        add languages to the project
  phrasebook screenshots push DIR         upload the screenshots of DIR, with their keys from NAME.json
  phrasebook <command> --help             every option of a client command, with examples

Settings (environment variable, or the flag that overrides it):
${settings}
`;
}
