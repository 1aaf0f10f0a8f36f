/**
 * The mirror's request signing (docs/deploy.md "Object storage and CDN purge") against the four
 * examples AWS publishes for S3's Signature Version 4 in the Authorization header ("Signature
 * Calculations for the Authorization Header: Transferring Payload in a Single Chunk"): the same
 * keys, time and requests give the same signatures. s3rver, which the other mirror tests run
 * against, does not check Version 4 signatures, so this is where they are checked.
 */
import { expect, test } from "bun:test";
import { sha256Hex } from "../../src/common/hash.ts";
import { EMPTY_PAYLOAD_SHA256, signRequest, uriEncode } from "../../src/targets/mirror/sigv4.ts";

const KEYS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1" };
const AT = Date.UTC(2013, 4, 24);
const HOST = "https://examplebucket.s3.amazonaws.com";
const signatureOf = (headers: Record<string, string>) => headers.authorization!.split("Signature=")[1];

test("GET Object with a Range header", () => {
  const headers = signRequest({ method: "GET", url: new URL(`${HOST}/test.txt`), headers: { Range: "bytes=0-9" }, payloadSha256: EMPTY_PAYLOAD_SHA256 }, KEYS, AT);
  expect(headers.authorization).toBe(
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  );
  expect(headers["x-amz-date"]).toBe("20130524T000000Z");
  expect(headers.host).toBeUndefined(); // fetch sends it from the URL
});

test("PUT Object: a key with a character to encode, a Date header and a storage class, the payload signed", () => {
  const body = new TextEncoder().encode("Welcome to Amazon S3.");
  const url = new URL(`${HOST}/${uriEncode("test$file.text", true)}`);
  const headers = signRequest(
    { method: "PUT", url, headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" }, payloadSha256: sha256Hex(body) },
    KEYS,
    AT,
  );
  expect(headers["x-amz-content-sha256"]).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  expect(signatureOf(headers)).toBe("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
});

test("GET Bucket Lifecycle: a subresource without a value", () => {
  const headers = signRequest({ method: "GET", url: new URL(`${HOST}/?lifecycle`), headers: {}, payloadSha256: EMPTY_PAYLOAD_SHA256 }, KEYS, AT);
  expect(signatureOf(headers)).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
});

test("GET Bucket (List Objects): query parameters sorted and encoded", () => {
  const headers = signRequest({ method: "GET", url: new URL(`${HOST}/?prefix=J&max-keys=2`), headers: {}, payloadSha256: EMPTY_PAYLOAD_SHA256 }, KEYS, AT);
  expect(signatureOf(headers)).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
});

test("URI encoding keeps only RFC 3986's unreserved characters (and '/' in a path)", () => {
  expect(uriEncode("p/a b/ü~._-*")).toBe("p%2Fa%20b%2F%C3%BC~._-%2A");
  expect(uriEncode("p/a b", true)).toBe("p/a%20b");
});
