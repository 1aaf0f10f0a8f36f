import { CliError } from "../../common/errors.ts";
import { currentKeyPathOf } from "../../delivery/protocol/manifest.ts";
import { MinisignFormatError, parsePublicKey, publicKeyFile } from "../../delivery/protocol/minisign.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { cdnOfUrl, latestOrTagged } from "./release-urls.ts";

/**
 * `phrasebook signing-key` (docs/delivery.md "Signatures"): prints the project's current public
 * key, the `key.pub` file its CDN serves, so `phrasebook signing-key > key.pub` keeps it for
 * `minisign -V` and `phrasebook verify`. A read token is enough: the CDN's address is found in a
 * published release's download URLs, so before the first publish the key is read in the dashboard.
 */
export async function runSigningKey(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`signing-key takes no argument (got "${args.words[1]}")`, 1);
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)));
  const what = "signing-key";
  const { items } = await client.publicApi<{ items: unknown[] }>(what, "/releases?page_size=1");
  if (!Array.isArray(items) || items.length === 0) {
    throw new CliError("signing-key: the project has published nothing yet, so its CDN address is not known here; read the key in the dashboard (the project's settings)", 1);
  }
  const { url } = await latestOrTagged(client, "latest", what);
  const { cdn, projectSlug } = cdnOfUrl(client, what, url);
  const bytes = await client.fetchBytes(what, `${cdn}/${currentKeyPathOf(projectSlug)}`, 4096);
  if (bytes === null) throw new CliError(`signing-key: 404 from ${cdn}/${currentKeyPathOf(projectSlug)}`, 2);
  let key;
  try {
    key = parsePublicKey(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new CliError(`signing-key: the CDN's key.pub is not a minisign public key (${err instanceof MinisignFormatError ? err.message : String(err)})`, 2);
  }
  // As minisign writes it, from what was read and checked: nothing else of the answer is echoed.
  await print(publicKeyFile(key));
  return 0;
}
