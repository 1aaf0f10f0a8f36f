import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { S3Client } from "bun";
import { writeDurable } from "../bundles/files.ts";
import { randomString } from "../common/ids.ts";

/**
 * Where a replica lives (docs/deploy.md "Continuous replication"): a folder, or a bucket and a
 * path in S3-compatible storage. Litestream keeps the database under `db/`; the files of each
 * published release are kept under `releases/<release id>/`, beside it.
 */
export type ReplicaTarget =
  | { kind: "folder"; path: string }
  | { kind: "s3"; bucket: string; path: string; endpoint?: string; region?: string };

export interface ReplicaSettings {
  replicaUrl: string | undefined;
  replicaS3Endpoint: string | undefined;
  replicaS3Region: string | undefined;
}

export function replicaTarget(settings: ReplicaSettings): ReplicaTarget | undefined {
  const url = settings.replicaUrl;
  if (!url) return undefined;
  if (!url.startsWith("s3://")) return { kind: "folder", path: url };
  const rest = url.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash + 1).replace(/^\/+|\/+$/g, "");
  return { kind: "s3", bucket, path, endpoint: settings.replicaS3Endpoint, region: settings.replicaS3Region };
}

/** Plain object storage over the two kinds: whole files by relative name, written once. */
export interface ReplicaFiles {
  /** Writes a file whole: a reader sees no file or all of it. */
  put(name: string, data: Uint8Array): Promise<void>;
  /** The bytes, or null when there is no such file. */
  get(name: string): Promise<Uint8Array | null>;
  /** The names under a folder-like prefix ("releases/"), one level deep. */
  children(prefix: string): Promise<string[]>;
  /** Removes everything under a prefix. */
  removeAll(prefix: string): Promise<void>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** A folder replica: files written beside their place, flushed and renamed in (as in the data dir). */
class FolderFiles implements ReplicaFiles {
  constructor(private readonly root: string) {}

  async put(name: string, data: Uint8Array): Promise<void> {
    const path = join(this.root, name);
    await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
    const temp = join(dirname(path), `.tmp-${randomString(8)}`);
    try {
      await writeDurable(temp, data);
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(name: string): Promise<Uint8Array | null> {
    try {
      return await readFile(join(this.root, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async children(prefix: string): Promise<string[]> {
    try {
      return (await readdir(join(this.root, prefix))).filter((name) => !name.startsWith("."));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(join(this.root, prefix), { recursive: true, force: true });
  }
}

/**
 * An S3-compatible replica through Bun's own client. Credentials come from the environment as
 * Litestream reads them (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), so one pair serves both.
 */
class S3Files implements ReplicaFiles {
  private readonly client: S3Client;

  constructor(private readonly target: Extract<ReplicaTarget, { kind: "s3" }>) {
    const env = process.env;
    this.client = new Bun.S3Client({
      bucket: target.bucket,
      endpoint: target.endpoint,
      region: target.region,
      accessKeyId: env.LITESTREAM_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.LITESTREAM_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY,
    });
  }

  private key(name: string): string {
    return this.target.path ? `${this.target.path}/${name}` : name;
  }

  async put(name: string, data: Uint8Array): Promise<void> {
    await this.client.write(this.key(name), data); // one PUT: the object appears whole
  }

  async get(name: string): Promise<Uint8Array | null> {
    const file = this.client.file(this.key(name));
    if (!(await file.exists())) return null;
    return new Uint8Array(await file.arrayBuffer());
  }

  async children(prefix: string): Promise<string[]> {
    const base = this.key(prefix.endsWith("/") ? prefix : `${prefix}/`);
    const names = new Set<string>();
    let continuationToken: string | undefined;
    do {
      const page = await this.client.list({ prefix: base, delimiter: "/", continuationToken });
      for (const p of page.commonPrefixes ?? []) names.add(p.prefix.slice(base.length).replace(/\/$/, ""));
      for (const c of page.contents ?? []) names.add(c.key.slice(base.length));
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return [...names].filter((n) => n && !n.startsWith("."));
  }

  async removeAll(prefix: string): Promise<void> {
    const base = this.key(prefix.endsWith("/") ? prefix : `${prefix}/`);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.list({ prefix: base, continuationToken });
      await Promise.all((page.contents ?? []).map((c) => this.client.delete(c.key)));
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
  }
}

export function replicaFiles(target: ReplicaTarget): ReplicaFiles {
  return target.kind === "folder" ? new FolderFiles(target.path) : new S3Files(target);
}
