import { sha256Hex } from "../../common/hash.ts";

/**
 * AWS Signature Version 4 for S3 requests, in the Authorization header with a signed payload
 * (docs/deploy.md "Object storage and CDN purge"). Bun's own S3 client signs only the headers it
 * knows, and it knows no `Cache-Control`; the mirror must store the CDN's `Cache-Control` with
 * every object, so it signs its requests here, every header it sends included. The algorithm is
 * AWS's, checked against the examples AWS publishes for S3 (test/targets/sigv4.test.ts).
 */
export interface SigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export const EMPTY_PAYLOAD_SHA256 = sha256Hex(new Uint8Array(0));

/** RFC 3986's unreserved characters stay; everything else is %XX of its UTF-8 bytes (S3's URI encoding). */
export function uriEncode(text: string, keepSlash = false): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(ch) || (keepSlash && ch === "/")) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function hmac(key: string | Uint8Array, text: string): Uint8Array {
  return new Bun.CryptoHasher("sha256", key).update(text).digest() as Uint8Array;
}

/** `20130524T000000Z`, the form of `x-amz-date`. */
export function amzDate(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

export interface RequestToSign {
  method: string;
  /** The URL as it will be sent: its path already encoded with `uriEncode(…, true)`. */
  url: URL;
  /** Headers to send and sign (any case); `host` is added from the URL. */
  headers: Record<string, string>;
  /** SHA-256 hex of the body (EMPTY_PAYLOAD_SHA256 for none). */
  payloadSha256: string;
}

/**
 * The headers to send: the given ones, `x-amz-date`, `x-amz-content-sha256` and `Authorization`.
 * Every header given is signed, so a store that stores it (Cache-Control, the object's metadata)
 * stores what was signed.
 */
export function signRequest(request: RequestToSign, keys: SigningKeys, epochMs: number, service = "s3"): Record<string, string> {
  const datetime = amzDate(epochMs);
  const date = datetime.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host = request.url.host;
  headers["x-amz-date"] = datetime;
  headers["x-amz-content-sha256"] = request.payloadSha256;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalRequest = [request.method, request.url.pathname || "/", query, canonicalHeaders, signedHeaders, request.payloadSha256].join("\n");
  const scope = `${date}/${keys.region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", datetime, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, date), keys.region), service), "aws4_request");
  const signature = Buffer.from(hmac(signingKey, stringToSign)).toString("hex");
  const { host: _host, ...sent } = headers;
  return { ...sent, authorization: `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}` };
}
