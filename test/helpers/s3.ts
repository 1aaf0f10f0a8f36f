/**
 * An S3-compatible server on loopback for the tests (s3rver, from npm): real S3 requests answered,
 * objects kept in a temp folder. The tests that need object storage start one each
 * (docs/architecture.md "Tests"). It can be stopped and started again on the same port and folder
 * (a store that is down for a while), and it tells, in order, each object it stored or removed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
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

export async function startS3(buckets: string[], port = 0): Promise<S3Server> {
  const S3rver = (await import("s3rver")).default;
  const directory = mkdtempSync(join(TEST_DIR_ROOT, "phrasebook-s3-"));
  const events: S3Event[] = [];
  let server: InstanceType<typeof S3rver> | null = null;
  let listening = port;
  const run = async () => {
    server = new S3rver({ port: listening, address: "127.0.0.1", silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
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
