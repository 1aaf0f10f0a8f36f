import { sha256Hex } from "../../common/hash.ts";
import { EMPTY_PAYLOAD_SHA256, signRequest, uriEncode } from "./sigv4.ts";
import type { TargetFetch } from "../target.ts";
import type { MirrorLocation } from "./location.ts";

/** What a stored object says about itself (a HEAD): enough to tell whether it is the CDN's. */
export interface StoredObject {
  size: number;
  contentType: string | null;
  cacheControl: string | null;
  /** `x-amz-meta-*`, by the name after the prefix. */
  meta: Record<string, string>;
}

/** A request the store refused or never answered, in words safe to log and show: no credential. */
export class StoreError extends Error {}

/**
 * A whole request may take this long: a large file (a language of 100,000 keys is a few MB) over
 * a slow link, or a store that accepts the connection and never answers, which then counts as a
 * failure and is retried.
 */
const REQUEST_TIMEOUT_MS = 120_000;

const decodeXml = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );

const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return m ? decodeXml(m[1]!) : undefined;
};

/**
 * The bucket of the mirror, in S3's REST API (PUT, HEAD and DELETE of an object, ListObjectsV2),
 * every request signed (sigv4.ts) and sent through the server's fetch. Works with any
 * S3-compatible store: AWS S3, Cloudflare R2, MinIO, Garage, Ceph.
 */
export class Bucket {
  private readonly base: URL;
  /** Ends every request under way at once (a server stopping: its copies are queued anyway). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly location: MirrorLocation,
    private readonly fetch: TargetFetch,
    private readonly now: () => number = Date.now,
  ) {
    const endpoint = new URL(location.endpoint ?? `https://s3.${location.region}.amazonaws.com`);
    if (location.virtualHosted) endpoint.hostname = `${location.bucket}.${endpoint.hostname}`;
    // Path style: `{endpoint}/{bucket}/{key}`; virtual-hosted: `{bucket}.{host}/{key}`.
    endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, "")}${location.virtualHosted ? "" : `/${location.bucket}`}`;
    this.base = endpoint;
  }

  /** The key of a CDN path: `{prefix}/{path}`, or the path when there is no prefix. */
  key(path: string): string {
    return this.location.prefix ? `${this.location.prefix}/${path}` : path;
  }

  private url(key: string | null, query: Record<string, string> = {}): URL {
    const url = new URL(this.base.href);
    // The bucket itself is `/{bucket}` in path style and `/` on its own host.
    const bucketPath = url.pathname.replace(/\/+$/, "");
    url.pathname = key === null ? bucketPath || "/" : `${bucketPath}/${uriEncode(key, true)}`;
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  }

  private async send(method: string, url: URL, headers: Record<string, string> = {}, body?: Uint8Array, bodySha256?: string): Promise<Response> {
    const payloadSha256 = body ? (bodySha256 ?? sha256Hex(body)) : EMPTY_PAYLOAD_SHA256;
    const signed = signRequest({ method, url, headers, payloadSha256 }, this.location, this.now());
    try {
      return await this.fetch(url, { method, headers: signed, body: body as Uint8Array<ArrayBuffer> | undefined, signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), this.stopping.signal]), redirect: "manual" });
    } catch (err) {
      const e = err as Error;
      throw new StoreError(e.name === "TimeoutError" ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : `the store did not answer: ${this.safe(e.message)}`);
    }
  }

  /** An answer that is no success, in words: S3's error code and message, never its echo of the request. */
  private async refused(method: string, res: Response): Promise<StoreError> {
    const xml = method === "HEAD" ? "" : await res.text().catch(() => "");
    const code = tag(xml, "Code");
    const message = tag(xml, "Message");
    return new StoreError(`${method} answered ${res.status}${code ? ` ${code}` : ""}${message ? `: ${this.safe(message).slice(0, 200)}` : ""}`);
  }

  /** Text that came back from the network, with the keys taken out should anything echo them. */
  private safe(text: string): string {
    let out = text;
    for (const secret of [this.location.secretAccessKey, this.location.accessKeyId]) if (secret) out = out.split(secret).join("[credential]");
    return out;
  }

  /** Writes an object whole with the headers it is served with (`sha256`: of `bytes`, when known already). */
  async put(key: string, bytes: Uint8Array, headers: Record<string, string>, sha256?: string): Promise<void> {
    // The payload is signed: a store that received other bytes refuses them.
    const res = await this.send("PUT", this.url(key), headers, bytes, sha256);
    if (!res.ok) throw await this.refused("PUT", res);
    await res.body?.cancel();
  }

  /** What the store holds at a key, or null when nothing. */
  async head(key: string): Promise<StoredObject | null> {
    const res = await this.send("HEAD", this.url(key));
    if (res.status === 404) return null;
    if (!res.ok) throw await this.refused("HEAD", res);
    const meta: Record<string, string> = {};
    for (const [name, value] of res.headers) if (name.startsWith("x-amz-meta-")) meta[name.slice("x-amz-meta-".length)] = value;
    return { size: Number(res.headers.get("content-length") ?? -1), contentType: res.headers.get("content-type"), cacheControl: res.headers.get("cache-control"), meta };
  }

  /** The object's bytes, or null (tests and `mirror sync` look at what the store holds). */
  async get(key: string): Promise<Uint8Array | null> {
    const res = await this.send("GET", this.url(key));
    if (res.status === 404) return null;
    if (!res.ok) throw await this.refused("GET", res);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Removes an object; an absent one is no error (S3 answers 204 either way). */
  async delete(key: string): Promise<void> {
    const res = await this.send("DELETE", this.url(key));
    if (!res.ok && res.status !== 404) throw await this.refused("DELETE", res);
    await res.body?.cancel();
  }

  /** Ends the requests under way, and refuses new ones. */
  abortAll(): void {
    this.stopping.abort();
  }

  /** Every key under a prefix (ListObjectsV2, page by page). */
  async *list(prefix: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const query: Record<string, string> = { "list-type": "2", prefix };
      if (token) query["continuation-token"] = token;
      const res = await this.send("GET", this.url(null, query));
      if (!res.ok) throw await this.refused("GET", res);
      const xml = await res.text();
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = tag(m[1]!, "Key");
        if (key !== undefined) yield key;
      }
      token = tag(xml, "IsTruncated") === "true" ? tag(xml, "NextContinuationToken") : undefined;
    } while (token);
  }
}
