/**
 * An S3-compatible server on loopback for the tests (s3rver, from npm): real S3 requests answered,
 * objects kept in a temp folder. The tests that need object storage start one each
 * (docs/architecture.md "Tests"). It can be stopped and started again on the same port and folder
 * (a store that is down for a while), and it tells, in order, each object it stored or removed.
 */
import { createHash } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Transform, type Readable } from "node:stream";
import { TEST_DIR_ROOT } from "./app.ts";

// s3rver's own credentials: it checks requests against them.
export const S3_ACCESS_KEY_ID = "S3RVER";
export const S3_SECRET_ACCESS_KEY = "S3RVER";
export const S3_REGION = "us-east-1";

/** An object stored or removed, in the order the server did it. */
export interface S3Event {
  op: "put" | "delete";
  bucket: string;
  key: string;
}

export interface S3Server {
  endpoint: string;
  port: number;
  /** Every object stored or removed since the start (or since `events.length = 0`). */
  events: S3Event[];
  /** A client of `bucket` with the server's credentials (to look at what a test wrote). */
  client(bucket: string): Bun.S3Client;
  /** Stops answering (connections refused) and keeps the objects. */
  stop(): Promise<void>;
  /** Answers again, on the same port, with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * s3rver 3.7.1's file store answers a PUT once it has handed the bytes to a write stream, before
 * the file is written (`putObject` resolves on the input's end, not the file's): a GET right after
 * can find the object missing or short, or fail with an InternalError, on a busy machine (one CI
 * run in several). Its `putObject` is replaced by the same steps that wait for the file to be
 * written and closed; everything else of the store is s3rver's own.
 */
let putObjectPatched = false;
async function patchPutObject(): Promise<void> {
  if (putObjectPatched) return;
  putObjectPatched = true;
  const FilesystemStore = (await import("s3rver/lib/stores/filesystem.js")).default;
  FilesystemStore.prototype.putObject = async function (object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }) {
    const objectPath: string = this.getResourcePath(object.bucket, object.key, "object");
    await mkdir(dirname(objectPath), { recursive: true });
    const md5 = createHash("md5");
    let size = 0;
    await new Promise<void>((resolve, reject) => {
      const file = createWriteStream(objectPath).on("error", reject).on("close", resolve);
      if (Buffer.isBuffer(object.content)) {
        md5.update(object.content);
        size = object.content.length;
        file.end(object.content);
        return;
      }
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          md5.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      object.content.on("error", reject).pipe(measure).on("error", reject).pipe(file);
    });
    const digest = md5.digest("hex");
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

export async function startS3(buckets: string[], port = 0): Promise<S3Server> {
  await patchPutObject();
  const S3rver = (await import("s3rver")).default;
  const directory = mkdtempSync(join(TEST_DIR_ROOT, "phrasebook-s3-"));
  const events: S3Event[] = [];
  let server: InstanceType<typeof S3rver> | null = null;
  let listening = port;
  const run = async () => {
    // S3RVER_LOUD=1 prints s3rver's own log, with the stack behind an InternalError.
    server = new S3rver({ port: listening, address: "127.0.0.1", silent: process.env.S3RVER_LOUD !== "1", directory, configureBuckets: buckets.map((name) => ({ name })) });
    server.on("event", (event: { Records: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } }[] }) => {
      for (const r of event.Records) events.push({ op: r.eventName.startsWith("ObjectRemoved") ? "delete" : "put", bucket: r.s3.bucket.name, key: decodeURIComponent(r.s3.object.key) });
    });
    listening = ((await server.run()) as { port: number }).port;
  };
  await run();
  const endpoint = `http://127.0.0.1:${listening}`;
  return {
    endpoint,
    port: listening,
    events,
    client: (bucket) => new Bun.S3Client({ bucket, endpoint, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION }),
    async stop() {
      await server?.close();
      server = null;
    },
    start: run,
    async close() {
      await server?.close();
      server = null;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A loopback proxy in front of an s3rver that lists as S3 does: it answers every ListObjects
 * request (V1, or V2 with `list-type=2`) that has a delimiter itself and passes every other
 * request through as sent. The tests whose client finds folders and orders files by a delimited
 * listing go through it: Litestream, which finds its generations by listing
 * `<replica>/db/generations/` with `/` as the delimiter and reads a generation's WAL segments from
 * a delimited listing of its `wal/` folder, in the order listed (docs/deploy.md "Continuous
 * replication").
 *
 * What it corrects, and only that, of s3rver 3.7.1's file store:
 * - Asked for a listing with a delimiter, it does not look inside any folder below the prefix
 *   whose path below the prefix holds the delimiter, so it sees only the keys at most one folder
 *   below the prefix, and reports a common prefix only when some key sits right under it.
 *   `db/generations/<id>/` holds only `snapshots/...` and `wal/...` keys and is never reported:
 *   `litestream restore` finds "no matching backups".
 * - It lists keys in the order its folders hold them on disk, not in S3's order (the keys' UTF-8
 *   bytes): Litestream stops reading a generation's WAL segments at the first one past the index
 *   it restores to, and refuses segments out of order ("missing initial wal segment").
 * AWS S3, R2, MinIO and Garage list every common prefix, whatever lies below it, in key order:
 * against them no such proxy is needed, nor used by Phrasebook.
 *
 * How: the proxy lists the prefix through s3rver without a delimiter (that listing holds every
 * key), with the request's own headers (so s3rver's check of the access key applies, and any
 * error it answers is passed on as it is), folds the keys into common prefixes, and answers the
 * page the request asked for: `max-keys` counting keys and prefixes together, in S3's order,
 * resumed after `marker`, `start-after` or the continuation token it gave (a common prefix given
 * back as the marker resumes after everything under it), with `NextMarker` (V1) or
 * `NextContinuationToken` (V2) when the listing goes on. `encoding-type` is ignored, as s3rver
 * ignores it. More than 1000 keys under the prefix get a 500 rather than a wrong answer: s3rver
 * resumes its listing after the last key of the page before, which in its disk order is not the
 * greatest, so its later pages would leave keys out.
 */
export interface S3ListingProxy {
  endpoint: string;
  /** How many delimited listings it has answered itself (to check a client came this way). */
  listings(): number;
  stop(): Promise<void>;
}

const LISTING_PARAMETERS = new Set(["list-type", "prefix", "delimiter", "max-keys", "marker", "continuation-token", "start-after", "fetch-owner", "encoding-type"]);
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "expect", "transfer-encoding", "te", "upgrade", "proxy-connection"]);
const TOKEN_TAG = "after:";

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
const unescapeXml = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === "#" ? String.fromCodePoint(Number(e[1] === "x" ? `0${e.slice(1)}` : e.slice(1))) : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );
const element = (name: string, value: string | number | boolean | undefined) => (value === undefined ? "" : `<${name}>${escapeXml(String(value))}</${name}>`);
/** S3 orders keys by their UTF-8 bytes (JavaScript's `<` compares UTF-16 units). */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function forwardedHeaders(headers: Headers): Headers {
  const out = new Headers();
  for (const [name, value] of headers) if (!HOP_BY_HOP.has(name.toLowerCase())) out.set(name, value);
  return out;
}

function s3Error(status: number, code: string, message: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<Error>${element("Code", code)}${element("Message", message)}</Error>`, { status, headers: { "content-type": "application/xml" } });
}

export function startListingProxy(upstream: string): S3ListingProxy {
  let listings = 0;

  const pass = async (request: Request, url: URL): Promise<Response> => {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const res = await fetch(`${upstream}${url.pathname}${url.search}`, { method: request.method, headers: forwardedHeaders(request.headers), body, redirect: "manual" });
    // Read whole, so the answer keeps s3rver's Content-Length (a streamed one would go chunked,
    // and Litestream's client needs the length of every object it reads).
    return new Response(request.method === "HEAD" ? null : await res.arrayBuffer(), { status: res.status, headers: res.headers });
  };

  const list = async (request: Request, bucket: string, query: URLSearchParams): Promise<Response> => {
    const v2 = query.get("list-type") === "2";
    const prefix = query.get("prefix") ?? "";
    const delimiter = query.get("delimiter")!;
    const maxKeys = Math.min(1000, Number(query.get("max-keys") ?? 1000));
    let after = "";
    const token = query.get("continuation-token");
    if (v2 && token) {
      const decoded = Buffer.from(token, "base64url").toString();
      if (!decoded.startsWith(TOKEN_TAG)) return s3Error(400, "InvalidArgument", "The continuation token provided is incorrect");
      after = decoded.slice(TOKEN_TAG.length);
    } else {
      after = (v2 ? query.get("start-after") : query.get("marker")) ?? "";
    }

    // Every key under the prefix, each with its <Contents> element as s3rver wrote it.
    const upstreamQuery = new URLSearchParams({ "list-type": "2", "max-keys": "1000" });
    if (prefix) upstreamQuery.set("prefix", prefix);
    if (!v2 || query.get("fetch-owner") === "true") upstreamQuery.set("fetch-owner", "true"); // V1 lists the owner
    const res = await fetch(`${upstream}/${bucket}?${upstreamQuery}`, { headers: forwardedHeaders(request.headers) });
    if (res.status !== 200) return new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers });
    const listed = await res.text();
    if (/<IsTruncated>true<\/IsTruncated>/.test(listed)) return s3Error(500, "InternalError", "more than 1000 keys under the prefix: the listing proxy cannot list them all through s3rver");
    const contents = new Map<string, string>();
    for (const [block, inner] of listed.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) contents.set(unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(inner!)![1]!), block);

    // Keys folded into common prefixes; what the page resumes after is left out (a common prefix
    // given back as the marker included: every key under it comes after it in byte order).
    const entries = new Map<string, string | null>(); // a key with its <Contents>, or a common prefix
    for (const [key, block] of contents) {
      if (!key.startsWith(prefix) || byteOrder(key, after) <= 0) continue;
      const at = key.indexOf(delimiter, prefix.length);
      if (at === -1) entries.set(key, block);
      else entries.set(key.slice(0, at + delimiter.length), null);
    }
    entries.delete(after);
    const names = [...entries.keys()].sort(byteOrder);
    const page = names.slice(0, maxKeys);
    const truncated = maxKeys > 0 && names.length > page.length; // max-keys=0: nothing, as s3rver answers it
    const last = page[page.length - 1];

    listings++;
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      element("Name", bucket) +
      element("Prefix", prefix) +
      (v2
        ? element("StartAfter", query.get("start-after") ?? undefined) +
          element("ContinuationToken", token ?? undefined) +
          element("NextContinuationToken", truncated ? Buffer.from(TOKEN_TAG + last).toString("base64url") : undefined) +
          element("KeyCount", page.length)
        : element("Marker", query.get("marker") ?? "") + element("NextMarker", truncated ? last : undefined)) +
      element("MaxKeys", query.get("max-keys") ?? 1000) +
      element("Delimiter", delimiter) +
      element("IsTruncated", truncated) +
      page.map((name) => entries.get(name) ?? "").join("") +
      page.filter((name) => entries.get(name) === null).map((name) => `<CommonPrefixes>${element("Prefix", name)}</CommonPrefixes>`).join("") +
      `</ListBucketResult>`;
    return new Response(xml, { headers: { "content-type": "application/xml" } });
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(request) {
      const url = new URL(request.url);
      const bucket = /^\/([^/]+)\/?$/.exec(url.pathname)?.[1];
      const query = url.searchParams;
      const listing =
        request.method === "GET" &&
        bucket !== undefined &&
        query.get("delimiter") &&
        [...query.keys()].every((name) => LISTING_PARAMETERS.has(name)) &&
        /^\d+$/.test(query.get("max-keys") ?? "0"); // s3rver answers a bad one with its own error
      return listing ? list(request, decodeURIComponent(bucket), query) : pass(request, url);
    },
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    listings: () => listings,
    stop: () => server.stop(true),
  };
}
