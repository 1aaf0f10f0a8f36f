/**
 * The web loader (docs/delivery.md "The loader"), served as `/client/ota.mjs`: one self-contained
 * ES module for browsers and Node 18+. Before an app uses a file it checks the manifest's
 * signature (following the project's key chain from the key the app trusts), the path the
 * signature names, that the sequence is not lower than the last good one, and the file's size and
 * SHA-256; on any failure it gives the last good strings with `error` saying why in one line.
 * Everything it checks is delivery/protocol, the same code `phrasebook verify` runs.
 */
import { portableHashes } from "../protocol/crypto.ts";
import { buildDirOf, channelDirOf, manifestPathOf, pathUnderCdn, releaseDirOf, SIGNATURE_SUFFIX, type Manifest, type ManifestRelease } from "../protocol/manifest.ts";
import { chainOf, fileFault, verifyManifest, VerifyError, type KeyChain } from "../protocol/verify.ts";

/** Where the loader keeps what it checked: `localStorage`'s shape. */
export interface LoaderStorage {
  getItem?(key: string): string | null;
  setItem?(key: string, value: string): void;
  get?(key: string): string | null | undefined | Promise<string | null | undefined>;
  set?(key: string, value: string): void | Promise<void>;
}

export interface LoaderOptions {
  /** The CDN's address, as the app reaches it (`https://cdn.example.com` or `https://i18n.example.com/cdn`). */
  cdnUrl: string;
  projectSlug: string;
  /** A channel's slug; without one, `latest`. */
  channelSlug?: string;
  /** A registered app build's id: its view, which leaves out what the build would show broken. */
  build?: string;
  /** The key line of a `key.pub` the app trusts (or the whole file). */
  publicKey: string;
  format?: "json" | "arb";
  /** `{get(key), set(key, value)}`; default `localStorage` where there is one, else memory. */
  storage?: LoaderStorage;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
}

export interface Loaded {
  messages: Record<string, string>;
  release: ManifestRelease;
  sequence: number;
  /** "network" when the strings were downloaded and checked now, "cache" when they are the ones kept. */
  from: "network" | "cache";
  /** Why the newest strings could not be used, in one line; null when nothing went wrong. */
  error: string | null;
}

interface ManifestState {
  etag: string | null;
  manifest: string;
  signature: string;
  sequence: number;
}

interface StringsState {
  sha256: string;
  bytes: number;
  sequence: number;
  release: ManifestRelease;
  messages: Record<string, string>;
}

/** A Map standing in for storage where there is none (Node, a private window). */
function memoryStorage(): LoaderStorage {
  const map = new Map<string, string>();
  return { get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
}

function defaultStorage(): LoaderStorage {
  try {
    const ls = (globalThis as { localStorage?: LoaderStorage }).localStorage;
    if (ls && typeof ls.getItem === "function") return ls;
  } catch {
    // a browser that refuses storage: memory it is
  }
  return memoryStorage();
}

/** Whether this is a browser: there, manifests revalidate through the HTTP cache. */
const inBrowser = typeof (globalThis as { document?: unknown }).document !== "undefined";

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

class LoadError extends Error {}

export function createLoader(options: LoaderOptions): { load(language: string): Promise<Loaded> } {
  const cdn = options.cdnUrl.replace(/\/+$/, "");
  const format = options.format ?? "json";
  if (format !== "json" && format !== "arb") throw new Error(`format must be json or arb (got ${String(format)})`);
  const storage = options.storage ?? defaultStorage();
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const trusted = chainOf(options.publicKey);
  const base = options.channelSlug ? channelDirOf(options.projectSlug, options.channelSlug) : releaseDirOf(options.projectSlug, "latest");
  const path = manifestPathOf(options.build ? buildDirOf(base, options.build) : base);
  const prefix = `phrasebook-ota:${path}`;
  const chainKey = `phrasebook-ota:p/${options.projectSlug}:chain:${trusted.keys[0]!.key}`;

  async function read<T>(key: string): Promise<T | undefined> {
    try {
      const raw = storage.get ? await storage.get(key) : storage.getItem?.(key);
      return raw ? (JSON.parse(raw) as T) : undefined;
    } catch {
      return undefined;
    }
  }
  async function write(key: string, value: unknown): Promise<void> {
    try {
      const text = JSON.stringify(value);
      if (storage.set) await storage.set(key, text);
      else storage.setItem?.(key, text);
    } catch {
      // storage full or refused: the strings are used, only not kept
    }
  }

  async function get(p: string, init: RequestInit = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetchFn(`${cdn}/${p}`, init);
    } catch (err) {
      throw new LoadError(`cannot reach the CDN (${oneLine(err)})`);
    }
    return res;
  }

  async function text(p: string, init?: RequestInit): Promise<string | null> {
    const res = await get(p, init);
    if (res.status === 404) return null;
    if (!res.ok) throw new LoadError(`${res.status} from ${cdn}/${p}`);
    return res.text();
  }

  /** The manifest as the CDN has it now: unchanged (a 304, or the same bytes) or new, with its signature. */
  async function fetchManifest(kept: ManifestState | undefined): Promise<{ state: ManifestState; changed: boolean }> {
    const init: RequestInit = inBrowser ? { cache: "no-cache" } : kept?.etag ? { headers: { "if-none-match": kept.etag } } : {};
    const res = await get(path, init);
    if (res.status === 304 && kept) return { state: kept, changed: false };
    if (res.status === 404) throw new LoadError(`no manifest at ${cdn}/${path} (nothing published there yet, or cdnUrl is not the CDN's address: by default the server's address + /cdn)`);
    if (!res.ok) throw new LoadError(`${res.status} from ${cdn}/${path}`);
    const manifest = await res.text();
    if (kept && manifest === kept.manifest) return { state: kept, changed: false };
    const signature = await text(path + SIGNATURE_SUFFIX, inBrowser ? { cache: "no-cache" } : {});
    if (signature === null) throw new LoadError("the manifest has no signature");
    return { state: { etag: res.headers.get("etag"), manifest, signature, sequence: 0 }, changed: true };
  }

  async function checked(state: ManifestState, kept: ManifestState | undefined): Promise<Manifest> {
    const chain = (await read<KeyChain>(chainKey)) ?? trusted;
    try {
      const verified = await verifyManifest({
        manifest: new TextEncoder().encode(state.manifest),
        signature: state.signature,
        path,
        projectSlug: options.projectSlug,
        chain,
        fetchText: (p) => text(p),
        hashes: portableHashes,
        minSequence: kept?.sequence,
      });
      await write(chainKey, verified.chain);
      return verified.manifest;
    } catch (err) {
      if (err instanceof VerifyError) throw new LoadError(err.message);
      throw err;
    }
  }

  /** A file the manifest names, checked against it; fetched again past the browser's cache once when it does not match. */
  async function file(url: string, entry: Manifest["languages"][string]["files"][string], name: string): Promise<Uint8Array> {
    const under = pathUnderCdn(url);
    if (under === null) throw new LoadError(`the manifest names ${url.slice(0, 200)}, which is no CDN file`);
    for (let attempt = 0; ; attempt++) {
      const res = await get(under, attempt === 0 || !inBrowser ? {} : { cache: "reload" });
      if (!res.ok) throw new LoadError(`${res.status} from ${cdn}/${under}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const fault = fileFault(bytes, entry, portableHashes);
      if (fault === null) return bytes;
      if (attempt >= 1 || !inBrowser) throw new LoadError(`${name}: ${fault}`);
    }
  }

  function messagesOf(bytes: Uint8Array, name: string): Record<string, string> {
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new LoadError(`${name} is not JSON`);
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new LoadError(`${name} is not an object of strings`);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(data)) {
      if (format === "arb" && k.startsWith("@")) continue; // ARB's attributes and metadata
      if (typeof v === "string") out[k] = v;
    }
    return out;
  }

  async function load(language: string): Promise<Loaded> {
    const name = `${language}.${format}`;
    const stringsKey = `${prefix}:${name}`;
    const kept = await read<ManifestState>(`${prefix}:manifest`);
    const had = await read<StringsState>(stringsKey);
    try {
      const { state, changed } = await fetchManifest(kept);
      const manifest = changed ? await checked(state, kept) : (JSON.parse(state.manifest) as Manifest);
      if (changed) await write(`${prefix}:manifest`, { ...state, sequence: manifest.sequence });
      const entry = manifest.languages[language]?.files[format];
      if (!entry) throw new LoadError(`release ${manifest.release.tag} has no ${name}`);
      if (had && had.sha256 === entry.sha256 && had.bytes === entry.bytes) {
        const now = { ...had, sequence: manifest.sequence, release: manifest.release };
        await write(stringsKey, now);
        return { messages: had.messages, release: manifest.release, sequence: manifest.sequence, from: "cache", error: null };
      }
      const messages = messagesOf(await file(entry.url, entry, name), name);
      await write(stringsKey, { sha256: entry.sha256, bytes: entry.bytes, sequence: manifest.sequence, release: manifest.release, messages } satisfies StringsState);
      return { messages, release: manifest.release, sequence: manifest.sequence, from: "network", error: null };
    } catch (err) {
      if (!(err instanceof LoadError) && !(err instanceof VerifyError) && !(err instanceof SyntaxError)) throw err;
      if (had) return { messages: had.messages, release: had.release, sequence: had.sequence, from: "cache", error: oneLine(err) };
      throw new Error(`phrasebook: ${oneLine(err)}`);
    }
  }

  return { load };
}

/** What i18next hands a backend (its `backend` options are the loader's). */
type ReadCallback = (err: unknown, data?: Record<string, string> | false) => void;

/**
 * An i18next backend on top of the loader: `i18next.use(I18nextBackend).init({backend: {...loader
 * options}})`. Each language's strings are its one namespace's; `reloadResources()` asks again.
 * A failure with strings kept gives those (the loader's `error` is passed to `onError`, when given).
 */
export class I18nextBackend {
  static readonly type = "backend";
  readonly type = "backend";
  private loader: ReturnType<typeof createLoader> | undefined;
  private onError: ((error: string) => void) | undefined;

  constructor(_services?: unknown, backendOptions?: LoaderOptions & { onError?: (error: string) => void }) {
    if (backendOptions) this.init(undefined, backendOptions);
  }

  init(_services: unknown, backendOptions: LoaderOptions & { onError?: (error: string) => void }): void {
    this.loader = createLoader(backendOptions);
    this.onError = backendOptions.onError;
  }

  read(language: string, _namespace: string, callback: ReadCallback): void {
    if (!this.loader) {
      callback(new Error("I18nextBackend: no backend options (cdnUrl, projectSlug, publicKey)"), false);
      return;
    }
    this.loader.load(language).then(
      (loaded) => {
        if (loaded.error !== null) this.onError?.(loaded.error);
        callback(null, loaded.messages);
      },
      (err) => callback(err, false),
    );
  }
}
