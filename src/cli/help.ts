import type { ClientCommand } from "./args.ts";
import { extensionsHelp, orList, PULL_FORMATS, PUSH_FORMATS } from "./client/formats.ts";

/*
 * The client commands' help (`phrasebook <command> --help`). A module of its own, loaded only when
 * help is asked for: its text names the formats, and the registry is not something `version` or
 * an ordinary start should load (docs/architecture.md "Loading only what is used").
 */

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
                       [--translations] [--fail-on-errors] [--add-languages] [--config FILE]

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
  --fail-on-errors      exit 3 when a pushed message has an error (also with --dry-run: a gate for
                        pull requests)
  --add-languages       add the languages of the files that the project lacks (else that is an error),
                        also those an XLIFF file or a String Catalog holds
  --config FILE         the configuration file (default: ./phrasebook.yaml)

Only regular files inside the working tree (the git repository around the current directory) are
read: no symlink out of it, no device or FIFO, nothing over 10 MB.

${CONNECTION_HELP}
Prints one line per file: <file>: N created, N updated, N unchanged, N deleted, then one line per
message problem: <key> [<language>] <code>: <message> (the first 20, then a count).

Examples:
  PHRASEBOOK_TOKEN=pb_... phrasebook push --server https://i18n.example.com
  phrasebook push lib/l10n/app_en.arb --dry-run --delete-missing
  phrasebook push locales/de.json --language de

${EXIT_CODES}`,
  pull: `Usage: phrasebook pull [--release latest|TAG|ID] [--format ${PULL_FORMATS.join("|")}] [--out PATTERN] [--language CODE]...
                       [--no-fallback-files] [--cdn-url URL] [--xliff-version 1.2|2.0] [--config FILE]

Downloads the files of a published release through the public API (the token needs the read scope)
and writes each language to PATTERN, atomically: a file is whole or untouched.

  --release WHICH       latest (default: the newest published), a release's tag (v1.4.0) or its id
  --format FORMAT       ${orList(PULL_FORMATS)}; default: from the extension of the pattern
  --out PATTERN         where to write; {language} is the language code (pt-BR) and {locale} the
                        same with underscores (pt_BR), as Flutter's gen-l10n names ARB files;
                        {android} the resource folder (values, values-de, values-pt-rBR);
                        default: the "translations" patterns of phrasebook.yaml (whose "source"
                        file is never overwritten). XLIFF and .xcstrings hold every language in
                        one file, so their pattern needs no {language}
  --language CODE       only this language; repeat for more (default: every language of the release)
  --no-fallback-files   ARB: do not write the language-only file gen-l10n needs beside a regional
                        one (app_pt.arb from pt-BR when the release has no pt)
  --cdn-url URL         the CDN's origin when it has a host of its own (default: PHRASEBOOK_CDN_URL,
                        else "cdn_url" in phrasebook.yaml); nothing is downloaded from other hosts
  --xliff-version V     1.2 (default) or 2.0, for --format xliff
  --force               replace local files even where that drops translations they hold for keys
                        the release has without them (else pull stops and writes nothing)
  --config FILE         the configuration file (default: ./phrasebook.yaml)

Where a file is there already, it keeps its shape: its key order (a new key goes where the source
file has it), indentation, final newline, comments and metadata; only the strings that differ
change. New files come in the team's shape: ARB messages named as the template named them, with
their descriptions and placeholders; JSON nested when the source file is (or "structure:
nested|flat" in phrasebook.yaml). A String Catalog (catalog: in phrasebook.yaml) gets the
release's translations written into it. A --format must be the format of the path's extension.

${CONNECTION_HELP}
Prints one line per file: wrote, unchanged, kept (a source file) or skipped (a language the
release lacks); a pull that wrote nothing says why.

Examples:
  phrasebook pull
  phrasebook pull --release v1.4.0 --out "lib/l10n/app_{locale}.arb"
  phrasebook pull --format json --out "public/locales/{language}.json" --language de --language fr
  phrasebook pull --out "app/src/main/res/{android}/strings.xml"
  phrasebook pull --format stringsdict --out "ios/{language}.lproj/Localizable.stringsdict"

${EXIT_CODES}`,
  publish: `Usage: phrasebook publish --name NAME --tag TAG

Creates a release of the project's current translations and publishes it (the token needs the
publish scope). Prints its id, its tag and the "latest" URLs of its files. Safe to re-run: a draft
with the tag (left by a run that message errors blocked) is published, and a release already
published with the tag is printed, exit 0. A blocked publish lists the errors, one per line.

  --name NAME           the release's name, e.g. "Spring update"
  --tag TAG             the release's tag, unique in the project, e.g. v1.4.0 or the commit's hash

${CONNECTION_HELP}
Example:
  phrasebook publish --name "Build $CI_PIPELINE_ID" --tag "$CI_COMMIT_SHORT_SHA"

${EXIT_CODES}`,
  status: `Usage: phrasebook status [--min-progress PCT] [--fail-on-errors]

Prints one line per language of the project: translated, approved, missing, errors, warnings (the
token needs the write or publish scope). As a gate in CI:

  --min-progress PCT    exit 3 when a language has less than PCT % of the keys translated (0-100,
                        compared exactly: 23 of 40 keys is 57.5 % and passes 57.5)
  --fail-on-errors      exit 3 when any message has an error (docs: message checks)
  --config FILE         the configuration file, for its "server" (default: ./phrasebook.yaml)

${CONNECTION_HELP}
Example:
  phrasebook status --min-progress 90 --fail-on-errors

${EXIT_CODES}`,
  rollback: `Usage: phrasebook rollback --to TAG|ID --tag NEW_TAG [--name NAME]

Rolls back by republishing: a new release with the same languages and byte-identical files as the
release named by --to, published now, so the "latest" URLs serve it at once, apps listening for
release_published hear of it, and no URL breaks (the token needs the publish scope).

  --to WHICH            the tag or id of the release to go back to
  --tag NEW_TAG         the new release's tag, unique in the project
  --name NAME           the new release's name (default: "Roll back to <tag>")

${CONNECTION_HELP}
Example:
  phrasebook rollback --to v1.3.0 --tag v1.3.0-rollback-1

${EXIT_CODES}`,
  promote: `Usage: phrasebook promote --channel NAME --release TAG|ID

Points a channel at a published release (the token needs the publish scope); the channel is made
the first time, with a CDN path of its own. Prints the channel's file URLs.

  --channel NAME        the channel: 1 to 32 of a-z, 0-9 and "-", not "latest" (e.g. staging)
  --release WHICH       the tag or id of a published release

${CONNECTION_HELP}
Example:
  phrasebook promote --channel production --release v1.4.0

${EXIT_CODES}`,
  languages: `Usage: phrasebook languages [list]
       phrasebook languages add CODE...

Lists the project's languages (the token needs the write or publish scope), or adds languages to
it (write scope). A language the project has already is said and passed over, so a re-run in CI
exits 0.

  CODE                  a language code: de, pt-BR, sr-Latn
  --config FILE         the configuration file, for its "server" (default: ./phrasebook.yaml)

${CONNECTION_HELP}
Examples:
  phrasebook languages
  phrasebook languages add fr pt-BR

${EXIT_CODES}`,
  diff: `Usage: phrasebook diff [--release TAG|ID] [--against TAG|ID]

Prints what a release changes against another (the token needs the write or publish scope): one
"+ key" (added), "- key" (removed) or "~ key [language]: before -> after" line each, then the counts.

  --release WHICH       the tag or id of the release (default: the newest draft: what publishing it
                        would change)
  --against WHICH       the tag or id of a published release (default: latest)

${CONNECTION_HELP}
Example:
  phrasebook diff --release v1.4.0 --against v1.3.0

${EXIT_CODES}`,
  builds: `Usage: phrasebook builds register [--name NAME]

Registers the app build being made: sends the source: files of phrasebook.yaml as the build knows
them (the token needs the write scope) and prints the build's id alone on the last line. The CDN
then serves each release filtered for that build under .../b/<build id>/: every message the build
lacks, or whose placeholders differ from the build's, is left out, so the app keeps its bundled
string for it. The same messages give the same id; a project keeps its 50 most recent builds.

  --name NAME           a name to know the build by in the dashboard (e.g. "1.4.0 (412)")
  --config FILE         phrasebook.yaml elsewhere than the current directory

${CONNECTION_HELP}
Example:
  BUILD_ID=$(phrasebook builds register --name "$CI_COMMIT_TAG" | tail -1)

${EXIT_CODES}`,
  verify: `Usage: phrasebook verify --public-key KEY [--release TAG|latest | --channel NAME | --manifest URL] [--build ID]

Fetches a manifest and its signature, checks the signature with KEY (following the project's key
chain from KEY when a later key signed it), the path it was signed for, and every file it names,
its size and SHA-256: one line per file. Exit 3 when any check fails.

  --public-key KEY      the key line of the project's key.pub, or a path to that file (phrasebook
                        signing-key prints it)
  --release WHICH       a release's tag or id, or latest (the default; a read token finds it)
  --channel NAME        a channel's manifest (a write or publish token may list channels)
  --manifest URL        any manifest's URL (no token needed)
  --build ID            the manifest of that app build's view (phrasebook builds register)
  --cdn-url URL         the CDN's origin, when it has a host of its own

${CONNECTION_HELP}
Example:
  phrasebook verify --public-key key.pub --release v1.4.0

${EXIT_CODES}`,
  "signing-key": `Usage: phrasebook signing-key

Prints the project's current public key, the key.pub file its CDN serves, for apps, minisign -V and
phrasebook verify. A read token is enough; before the first publish, read the key in the dashboard.

  --cdn-url URL         the CDN's origin, when it has a host of its own

${CONNECTION_HELP}
Example:
  phrasebook signing-key > key.pub

${EXIT_CODES}`,
  screenshots: `Usage: phrasebook screenshots push DIR

Uploads every .png, .jpg, .jpeg and .webp file of DIR to the token's project (the token needs the
write scope) as the screenshot named by its file name without extension, and sets the keys it
shows from NAME.json beside it (home.png -> home.json):

  {"keys": ["checkout.title", {"key": "cart.empty", "box": {"x": 60, "y": 150, "width": 200, "height": 36}}]}

A box is where the key's text is, in the image's pixels from its top left corner. An image the
server already has is not sent again and keys already set are not set again: pushing the same
folder twice changes nothing. A file's bytes must be the type its extension says; the server
refuses anything else (SVG, an image larger than 16,384 pixels a side, more than 5 MB).

${CONNECTION_HELP}
Example:
  phrasebook screenshots push app/screenshots

${EXIT_CODES}`,
};
