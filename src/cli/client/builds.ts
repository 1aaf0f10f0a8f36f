import { CliError } from "../../common/errors.ts";
import { BUILD_FILES_MAX } from "../../delivery/limits.ts";
import { formatOfPath } from "../../formats/registry.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { IMPORT_TIMEOUT_MS, PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { readTextFile } from "./files.ts";
import { PUSH_FORMATS, writtenExtensions } from "./formats.ts";
import { tokenProject } from "./project.ts";

/**
 * `phrasebook builds register [--name NAME]` (docs/delivery.md "App builds"): sends the `source:`
 * files of phrasebook.yaml, as the app build being made knows them, and prints the build's id
 * alone on its last line, for the build to be configured with (`BUILD_ID=$(phrasebook builds
 * register | tail -1)`). Needs the write scope, as a push does.
 */
export async function runBuilds(args: ParsedArgs): Promise<number> {
  const sub = args.words[1];
  if (sub !== "register") throw new CliError(`builds needs a subcommand: builds register [--name NAME] (got ${sub === undefined ? "none" : `"${sub}"`})`, 1);
  if (args.words.length > 2) throw new CliError(`builds register takes no FILE (got "${args.words[2]}"): it sends the source: files of phrasebook.yaml`, 1);
  const config = await loadConfig(args);
  if (!config) throw new CliError("builds register sends the source: files of phrasebook.yaml, and there is none here (or give --config FILE)", 1);
  const sources = config.files.flatMap((f) => (f.source ? [f.source] : []));
  if (sources.length === 0) throw new CliError(`${config.path} names no source: file to register`, 1);
  if (sources.length > BUILD_FILES_MAX) throw new CliError(`${config.path} names ${sources.length} source files; a build takes at most ${BUILD_FILES_MAX}`, 1);
  const files = sources.map((path) => {
    const format = formatOfPath(path, PUSH_FORMATS);
    if (!format) throw new CliError(`${path}: not a translation file this client knows (${writtenExtensions(PUSH_FORMATS)})`, 1);
    return { format, content: readTextFile(path) };
  });
  const client = new PhrasebookClient(connectionFrom(args, config));
  const project = await tokenProject(client, "builds register");
  const name = args.flags["--name"];
  const made = await client.dashboard<{ build_id: string; keys: number }>("builds register", "POST", `/projects/${project.id}/builds`, {
    json: JSON.stringify({ ...(name !== undefined ? { name } : {}), files }),
    timeoutMs: IMPORT_TIMEOUT_MS,
  });
  if (!/^[0-9a-f]{16}$/.test(String(made.build_id))) throw new CliError("builds register: the server's answer has no build id", 2);
  await print(`registered build of ${made.keys} message(s) from ${sources.join(", ")}\n${made.build_id}\n`);
  return 0;
}
