import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { S3Client } from "bun";
import { writeAtomic } from "../bundles/files.ts";

/**
 * Where objects live: a folder, or a bucket and a prefix in S3-compatible storage (AWS S3,
 * Cloudflare R2, MinIO, Garage, Ceph). The replica's release copies use it (docs/deploy.md
 * "Continuous replication"); any publish target that keeps files elsewhere can
 * (docs/architecture.md "Publish targets").
 */
export type ObjectLocation =
  | { kind: "folder"; path: string }
  | {
      kind: "s3";
      bucket: string;
      /** Keys are `{path}/{name}`, or `{name}` when empty; no slash at either end. */
      path: string;
      endpoint?: string;
      region?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      /** `bucket.host/key` instead of `host/bucket/key` (AWS's own style; path style by default). */
      virtualHostedStyle?: boolean;
    };

/** Plain object storage over the two kinds: whole objects by relative name. */
export interface ObjectStore {
  /** Writes an object whole: a reader sees no object, the old one, or all of the new one. */
  put(name: string, data: Uint8Array, options?: { contentType?: string }): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(name: string): Promise<Uint8Array | null>;
  /** The names under a folder-like prefix ("releases/"), one level deep. */
  children(prefix: string): Promise<string[]>;
  /** Removes one object; an absent one is no error. */
  delete(name: string): Promise<void>;
  /** Removes everything under a prefix. */
  removeAll(prefix: string): Promise<void>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** A folder: files written beside their place, flushed and renamed in (as in the data dir). */
class FolderStore implements ObjectStore {
  constructor(private readonly root: string) {}

  async put(name: string, data: Uint8Array): Promise<void> {
    const path = join(this.root, name);
    await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
    await writeAtomic(path, dirname(path), basename(path), data);
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

  async delete(name: string): Promise<void> {
    await rm(join(this.root, name), { force: true });
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(join(this.root, prefix), { recursive: true, force: true });
  }
}

/** S3-compatible storage through Bun's own client (one PUT per object, so it appears whole). */
class S3Store implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly location: Extract<ObjectLocation, { kind: "s3" }>) {
    this.client = new Bun.S3Client({
      bucket: location.bucket,
      endpoint: location.endpoint,
      region: location.region,
      accessKeyId: location.accessKeyId,
      secretAccessKey: location.secretAccessKey,
      virtualHostedStyle: location.virtualHostedStyle,
    });
  }

  private key(name: string): string {
    return this.location.path ? `${this.location.path}/${name}` : name;
  }

  async put(name: string, data: Uint8Array, options: { contentType?: string } = {}): Promise<void> {
    await this.client.write(this.key(name), data, options.contentType ? { type: options.contentType } : undefined);
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

  async delete(name: string): Promise<void> {
    await this.client.delete(this.key(name));
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

export function objectStore(location: ObjectLocation): ObjectStore {
  return location.kind === "folder" ? new FolderStore(location.path) : new S3Store(location);
}
