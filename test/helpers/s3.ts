/**
 * An S3-compatible server on loopback for the tests (s3rver, from npm): real S3 requests signed
 * and answered, objects kept in a temp folder. The tests that need object storage start one
 * each (docs/architecture.md "Tests").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TEST_DIR_ROOT } from "./app.ts";

// s3rver's own credentials: it checks the signature against them.
export const S3_ACCESS_KEY_ID = "S3RVER";
export const S3_SECRET_ACCESS_KEY = "S3RVER";
export const S3_REGION = "us-east-1";

export interface S3Server {
  endpoint: string;
  port: number;
  /** A client of `bucket` with the server's credentials (to look at what a test wrote). */
  client(bucket: string): Bun.S3Client;
  close(): Promise<void>;
}

export async function startS3(buckets: string[], port = 0): Promise<S3Server> {
  const S3rver = (await import("s3rver")).default;
  const directory = mkdtempSync(join(TEST_DIR_ROOT, "phrasebook-s3-"));
  const server = new S3rver({ port, address: "127.0.0.1", silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    port: address.port,
    client: (bucket) => new Bun.S3Client({ bucket, endpoint, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
