import type { FileHeaders } from "./headers.ts";

/**
 * The in-process cache in front of the data dir (issue 3 item 4), bounded by
 * PHRASEBOOK_CDN_CACHE_MB. Two levels: a blob is one file's bytes in every encoding (shared by its
 * pinned and `latest` URLs); a route maps a request path to a blob with ready headers. A hit is
 * one Map lookup. Eviction is CLOCK (second chance): a hit only sets a flag, so the hot path never
 * reorders the Map. Purging a project drops its routes and blobs at once and bumps its generation,
 * so a fill that started before the purge does not store what it read.
 */
export interface Blob {
  key: string;
  projectId: number;
  identity: Uint8Array;
  gzip: Uint8Array | null; // null when compression would not make it smaller
  br: Uint8Array | null;
  etag: string; // strong tag of the identity bytes, quoted
  size: number;
  hot: boolean;
  routes: Set<string>;
}

export interface Variant {
  body: Uint8Array;
  etag: string;
  headers: FileHeaders;
}

export interface Route {
  blob: Blob;
  identity: Variant;
  gzip: Variant | null;
  br: Variant | null;
}

/** Map entries, header objects and the like, counted per blob on top of its bytes. */
export const BLOB_OVERHEAD_BYTES = 2048;

export function blobSize(identity: Uint8Array, gz: Uint8Array | null, br: Uint8Array | null): number {
  return identity.length + (gz?.length ?? 0) + (br?.length ?? 0) + BLOB_OVERHEAD_BYTES;
}

export class CdnCache {
  readonly routes = new Map<string, Route>();
  private readonly blobs = new Map<string, Blob>();
  private readonly projectBlobs = new Map<number, Set<string>>();
  private readonly generations = new Map<number, number>();
  private bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get usedBytes(): number {
    return this.bytes;
  }

  get blobCount(): number {
    return this.blobs.size;
  }

  route(path: string): Route | undefined {
    const route = this.routes.get(path);
    if (route !== undefined) route.blob.hot = true;
    return route;
  }

  blob(key: string): Blob | undefined {
    return this.blobs.get(key);
  }

  generation(projectId: number): number {
    return this.generations.get(projectId) ?? 0;
  }

  /** Stores a route (and its blob if new) unless the project was purged since `generation`. */
  add(path: string, route: Route, generation: number): boolean {
    const blob = route.blob;
    if (generation !== this.generation(blob.projectId) || blob.size > this.budgetBytes) return false;
    if (!this.blobs.has(blob.key)) {
      this.evictFor(blob.size);
      this.blobs.set(blob.key, blob);
      this.bytes += blob.size;
      let set = this.projectBlobs.get(blob.projectId);
      if (!set) this.projectBlobs.set(blob.projectId, (set = new Set()));
      set.add(blob.key);
    } else if (this.blobs.get(blob.key) !== blob) {
      return false; // another fill stored this file first; its copy serves
    }
    blob.routes.add(path);
    this.routes.set(path, route);
    return true;
  }

  purgeProject(projectId: number): void {
    this.generations.set(projectId, this.generation(projectId) + 1);
    const keys = this.projectBlobs.get(projectId);
    if (!keys) return;
    for (const key of keys) this.dropBlob(key, false);
    this.projectBlobs.delete(projectId);
  }

  private dropBlob(key: string, unlinkProject = true): void {
    const blob = this.blobs.get(key);
    if (!blob) return;
    for (const path of blob.routes) this.routes.delete(path);
    this.blobs.delete(key);
    this.bytes -= blob.size;
    if (unlinkProject) this.projectBlobs.get(blob.projectId)?.delete(key);
  }

  private evictFor(incoming: number): void {
    while (this.bytes + incoming > this.budgetBytes && this.blobs.size > 0) {
      const [key, blob] = this.blobs.entries().next().value as [string, Blob];
      if (blob.hot) {
        blob.hot = false;
        this.blobs.delete(key); // second chance: to the back of the queue
        this.blobs.set(key, blob);
      } else {
        this.dropBlob(key);
      }
    }
  }
}
