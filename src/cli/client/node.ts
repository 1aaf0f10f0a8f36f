/**
 * The Node client: `node phrasebook.mjs <command>` (docs/automation.md "The Node client"). Bundled
 * by `bun build --target=node` into one file the server hands out at `/client/phrasebook.mjs`
 * (./script.ts). It runs the client commands of the executable from the same sources, with the
 * same output and exit codes; the server's commands belong to the executable.
 */
import pkg from "../../../package.json" with { type: "json" };
import { CliError } from "../../common/errors.ts";
import { checkFlags, CLIENT_COMMANDS, parseArgs, type ClientCommand } from "../args.ts";
import { print, printError } from "../output.ts";
import { runClientCommand } from "./run.ts";

const VERSION: string = pkg.version;

const isClientCommand = (command: string): command is ClientCommand => (CLIENT_COMMANDS as readonly string[]).includes(command);

const USAGE = `phrasebook ${VERSION} (Node client): the command-line client of a Phrasebook server

Usage (PHRASEBOOK_SERVER and PHRASEBOOK_TOKEN, or --server and --token):
  node phrasebook.mjs push [FILE...]      import translation files (default: those of phrasebook.yaml)
  node phrasebook.mjs pull                write the files of the latest release (or --release TAG)
  node phrasebook.mjs publish --name N --tag T
                                          create a release and publish it
  node phrasebook.mjs status              progress and message problems per language; a CI gate
  node phrasebook.mjs rollback --to T --tag NEW
                                          republish an earlier release as a new one: latest serves it
  node phrasebook.mjs promote --channel C --release T
                                          point a channel (staging, production) at a release
  node phrasebook.mjs diff [--release T] [--against T]
                                          what a release (default: the newest draft) changes
  node phrasebook.mjs languages [list]    the project's languages
  node phrasebook.mjs languages add CODE...
                                          add languages to the project
  node phrasebook.mjs builds register    register the app build being made; prints its build id
  node phrasebook.mjs verify --public-key KEY
                                          check a manifest's signature and every file it names
  node phrasebook.mjs signing-key         print the project's public key (its key.pub)
  node phrasebook.mjs screenshots push DIR
                                          upload the screenshots of DIR, with their keys from NAME.json
  node phrasebook.mjs <command> --help    every option of a client command, with examples
  node phrasebook.mjs version             print the version
`;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command = "help"] = args.words;
  if (args.help || command === "help") {
    await print(isClientCommand(command) ? (await import("../help.ts")).COMMAND_HELP[command] : USAGE);
    return 0;
  }
  if (command === "version") {
    await print(`phrasebook ${VERSION}\n`);
    return 0;
  }
  if (!isClientCommand(command)) {
    throw new CliError(`unknown command "${command}": the Node client runs ${CLIENT_COMMANDS.join(", ")} (the server is the phrasebook executable)`, 1);
  }
  checkFlags(command, args);
  return runClientCommand(command, args);
}

main(process.argv.slice(2))
  .catch(async (err: unknown) => {
    if (err instanceof CliError) {
      await printError(`phrasebook: ${err.message}\n`);
      return err.exitCode;
    }
    await printError(`phrasebook: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  })
  .then((code) => process.exit(code));
