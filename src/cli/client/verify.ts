import { CliError } from "../../common/errors.ts";
import type { Hashes } from "../../delivery/protocol/crypto.ts";
import { BUILD_ID_PATTERN, buildDirOf, channelDirOf, manifestPathOf, pathUnderCdn, releaseDirOf, SIGNATURE_SUFFIX } from "../../delivery/protocol/manifest.ts";
import { keyIdOf, MinisignFormatError, parseSignature } from "../../delivery/protocol/minisign.ts";
import { chainOf, fileFault, verifyManifest, VerifyError } from "../../delivery/protocol/verify.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { readTextFile } from "./files.ts";
import { JSON_ANSWER_MAX_BYTES } from "./limits.ts";
import { tokenProject } from "./project.ts";
import { cdnOfUrl, latestOrTagged } from "./release-urls.ts";

/**
 * `phrasebook verify` (docs/delivery.md "Verification"): fetches a manifest and its signature,
 * checks the signature with the key given (following the project's key chain from it when a later
 * key signed), the path it names, and every file's size and SHA-256, one line per file. Exit 3 when
 * any check fails: the same checks the web loader makes (delivery/protocol/verify.ts).
 */

/** SHA-256 and BLAKE2b-512 of node:crypto, in Bun and in Node alike, loaded only here. */
async function nodeHashes(): Promise<Hashes> {
  const { createHash } = await import("node:crypto");
  return {
    blake2b512: (bytes) => new Uint8Array(createHash("blake2b512").update(bytes).digest()),
    sha256Hex: (bytes) => createHash("sha256").update(bytes).digest("hex"),
  };
}

/** `--public-key`: a key line, or a path to a key.pub file. */
function publicKeyFrom(raw: string | undefined): string {
  if (!raw) throw new CliError("verify needs --public-key: the key line of the project's key.pub (phrasebook signing-key prints it), or a path to that file", 1);
  const text = /^[A-Za-z0-9+/=]{40,}$/.test(raw.trim()) ? raw.trim() : readTextFile(raw, 4096);
  try {
    return chainOf(text).keys[0]!.key;
  } catch (err) {
    throw new CliError(`--public-key: ${err instanceof MinisignFormatError ? err.message : String(err)}`, 1);
  }
}

interface Target {
  client: PhrasebookClient;
  /** The CDN's address the paths are under, and the project's slug. */
  cdn: string;
  projectSlug: string;
  /** The manifest's path under the CDN's address. */
  path: string;
}

/** Which manifest the options name, and where the CDN is. */
async function targetOf(args: ParsedArgs): Promise<Target> {
  const build = args.flags["--build"];
  if (build !== undefined && !BUILD_ID_PATTERN.test(build)) throw new CliError(`--build must be a build id of 16 hex digits (got "${build.slice(0, 40)}")`, 1);
  const chosen = ["--release", "--channel", "--manifest"].filter((f) => args.flags[f] !== undefined);
  if (chosen.length > 1) throw new CliError(`verify takes one of --release, --channel and --manifest (got ${chosen.join(" and ")})`, 1);
  const manifestUrl = args.flags["--manifest"];
  if (manifestUrl !== undefined) {
    if (build !== undefined) throw new CliError("--build goes with --release or --channel; --manifest names the build's manifest itself", 1);
    let url: URL;
    try {
      url = new URL(manifestUrl);
    } catch {
      throw new CliError(`--manifest "${manifestUrl.slice(0, 100)}" is not a URL`, 1);
    }
    const path = pathUnderCdn(url.href);
    const slug = /^p\/([0-9A-Za-z]{16})\//.exec(path ?? "")?.[1];
    if (!path || !slug || !path.endsWith("/manifest.json")) throw new CliError(`--manifest must be a manifest's URL, .../p/{project}/.../manifest.json (got "${manifestUrl.slice(0, 200)}")`, 1);
    const cdn = url.href.slice(0, url.href.length - path.length - 1);
    // No token needed: only the CDN is read, at the address given.
    return { client: new PhrasebookClient({ server: url.origin, token: "" }), cdn, projectSlug: slug, path };
  }
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)));
  const channel = args.flags["--channel"];
  let dir: (projectSlug: string) => string;
  let at: { cdn: string; projectSlug: string };
  if (channel !== undefined) {
    // A channel's URLs come from the dashboard API, which a write or publish token may read.
    const project = await tokenProject(client, `verify --channel ${channel}`);
    const found = await client.dashboard<{ slug: string; urls: Record<string, Record<string, string>> }>(`verify --channel ${channel}`, "GET", `/projects/${project.id}/channels/${encodeURIComponent(channel)}`);
    const any = Object.values(found.urls ?? {}).flatMap((byFormat) => Object.values(byFormat))[0];
    if (!any || !/^[0-9A-Za-z]{16}$/.test(String(found.slug))) throw new CliError(`verify --channel ${channel}: the server's answer names no file of the channel`, 2);
    at = cdnOfUrl(client, `verify --channel ${channel}`, any);
    dir = (slug) => channelDirOf(slug, found.slug);
  } else {
    const which = args.flags["--release"] ?? "latest";
    const found = await latestOrTagged(client, which, `verify --release ${which}`);
    at = cdnOfUrl(client, `verify --release ${which}`, found.url);
    dir = (slug) => releaseDirOf(slug, which === "latest" ? "latest" : found.releaseSlug);
  }
  const base = dir(at.projectSlug);
  return { client, cdn: at.cdn, projectSlug: at.projectSlug, path: manifestPathOf(build ? buildDirOf(base, build) : base) };
}

export async function runVerify(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`verify takes no FILE (got "${args.words[1]}")`, 1);
  const trusted = publicKeyFrom(args.flags["--public-key"]);
  const { client, cdn, projectSlug, path } = await targetOf(args);
  const hashes = await nodeHashes();
  const get = (p: string, max?: number) => client.fetchBytes(`verify ${p}`, `${cdn}/${p}`, max);
  const manifest = await get(path, JSON_ANSWER_MAX_BYTES);
  if (manifest === null) throw new CliError(`verify: 404 from ${cdn}/${path}: no such manifest (nothing published there yet?)`, 2);
  const signature = await get(path + SIGNATURE_SUFFIX, 64 * 1024);
  if (signature === null) throw new CliError(`verify: 404 from ${cdn}/${path}${SIGNATURE_SUFFIX}: the manifest has no signature`, 2);
  const lines: string[] = [];
  let verified;
  try {
    verified = await verifyManifest({
      manifest,
      signature: new TextDecoder().decode(signature),
      path,
      projectSlug,
      chain: { keys: [{ n: null, key: trusted }] },
      hashes,
      fetchText: async (p) => {
        const bytes = await get(p, 64 * 1024);
        return bytes === null ? null : new TextDecoder().decode(bytes);
      },
    });
  } catch (err) {
    if (err instanceof VerifyError) {
      await print(`FAILED ${path}: ${err.message}\n`);
      return 3;
    }
    throw err;
  }
  const m = verified.manifest;
  const signer = keyIdOf(parseSignature(new TextDecoder().decode(signature)).keyNumber);
  lines.push(`ok ${path}: signed by key ${signer}, sequence ${m.sequence}, release ${m.release.tag} (${m.release.id})${m.build_id ? `, build ${m.build_id}` : ""}`);
  let failed = 0;
  let count = 0;
  for (const [code, lang] of Object.entries(m.languages ?? {})) {
    for (const [format, entry] of Object.entries(lang.files ?? {})) {
      count++;
      const name = `${code}.${format}`;
      const under = pathUnderCdn(String(entry.url));
      const bytes = under === null ? null : await get(under);
      const fault = bytes === null ? `404 from ${String(entry.url).slice(0, 200)}` : fileFault(bytes, entry, hashes);
      if (fault !== null) failed++;
      lines.push(fault === null ? `ok ${name} (${entry.bytes} bytes, sha256 ${entry.sha256.slice(0, 16)}...)` : `FAILED ${name}: ${fault}`);
    }
  }
  lines.push(failed === 0 ? `verified ${count} file(s)` : `${failed} of ${count} file(s) failed`);
  await print(lines.join("\n") + "\n");
  return failed === 0 ? 0 : 3;
}
