/**
 * The in-process cache in front of the data dir (docs/cdn.md "Speed"), bounded by
 * PHRASEBOOK_CDN_CACHE_MB. Two levels: a file is its bytes in every encoding (shared by its pinned
 * and `latest` URLs); a route maps a request path to a file with ready responses. A hit is one
 * Map lookup. Eviction is CLOCK (second chance): a hit only sets a flag, so the hot path never
 * reorders the Map. Purging a project drops its routes and files at once and bumps its generation,
 * so a fill that started before the purge does not store what it read.
 */
export interface CachedFile {
  key: string;
  projectId: number;
  /**
   * Where the file is on disk, for the encodings made later and stored beside it; null for an
   * object made in memory (a manifest, a key file), compressed in memory when asked.
   */
  diskPath: string | null;
  /** Bun Blobs: a Response built from one shares its bytes instead of copying them. */
  identity: Blob;
  /**
   * null when compression would not make it smaller; undefined until a request wants that
   * encoding (a file is compressed once per encoding, on the first request that asks for it).
   */
  gzip: Blob | null | undefined;
  br: Blob | null | undefined;
  etag: string; // strong tag of the identity bytes, quoted
  size: number;
  hot: boolean;
  routes: Set<string>;
}

/**
 * One encoding of a file under one URL, as ready responses. A hit returns `ok.clone()`: cloning a
 * Blob-backed Response shares the bytes and the headers are already built, so a hit costs well under
 * a microsecond, where `new Response(bytes, {headers})` copies the bytes and parses every header.
 */
export interface Variant {
  etag: string;
  bytes: number;
  ok: Response;
  notModified: Response;
}

export interface Route {
  file: CachedFile;
  /** What the route's variants are made with: the file's content type and the path's cache header. */
  contentType: string;
  cacheControl: string;
  /** `Surrogate-Key`, with Fastly purging (docs/deploy.md "Object storage and CDN purge"); null without. */
  surrogateKey?: string | null;
  identity: Variant;
  /** As the file's: null when not smaller, undefined until made. */
  gzip: Variant | null | undefined;
  br: Variant | null | undefined;
}

/** Map entries, responses, header objects and the like, counted per file on top of its bytes. */
export const FILE_OVERHEAD_BYTES = 4096;

export function cachedSize(identity: number, gzip: number, br: number): number {
  return identity + gzip + br + FILE_OVERHEAD_BYTES;
}

export class CdnCache {
  readonly routes = new Map<string, Route>();
  private readonly files = new Map<string, CachedFile>();
  private readonly projectFiles = new Map<number, Set<string>>();
  private readonly generations = new Map<number, number>();
  private bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get usedBytes(): number {
    return this.bytes;
  }

  get fileCount(): number {
    return this.files.size;
  }

  route(path: string): Route | undefined {
    const route = this.routes.get(path);
    if (route !== undefined) route.file.hot = true;
    return route;
  }

  file(key: string): CachedFile | undefined {
    return this.files.get(key);
  }

  generation(projectId: number): number {
    return this.generations.get(projectId) ?? 0;
  }

  /** Stores a route (and its file if new) unless the project was purged since `generation`. */
  add(path: string, route: Route, generation: number): boolean {
    const file = route.file;
    if (generation !== this.generation(file.projectId) || file.size > this.budgetBytes) return false;
    if (!this.files.has(file.key)) {
      this.evictFor(file.size);
      this.files.set(file.key, file);
      this.bytes += file.size;
      let set = this.projectFiles.get(file.projectId);
      if (!set) this.projectFiles.set(file.projectId, (set = new Set()));
      set.add(file.key);
    } else if (this.files.get(file.key) !== file) {
      return false; // another fill stored this file first; its copy serves
    }
    file.routes.add(path);
    this.routes.set(path, route);
    return true;
  }

  /** A file still cached took `bytes` more (an encoding made for it); the budget holds. */
  grew(file: CachedFile, bytes: number): void {
    file.size += bytes;
    if (this.files.get(file.key) !== file) return;
    this.bytes += bytes;
    this.evictFor(0);
  }

  purgeProject(projectId: number): void {
    this.generations.set(projectId, this.generation(projectId) + 1);
    const keys = this.projectFiles.get(projectId);
    if (!keys) return;
    for (const key of keys) this.drop(key, false);
    this.projectFiles.delete(projectId);
  }

  private drop(key: string, unlinkProject = true): void {
    const file = this.files.get(key);
    if (!file) return;
    for (const path of file.routes) this.routes.delete(path);
    this.files.delete(key);
    this.bytes -= file.size;
    if (unlinkProject) this.projectFiles.get(file.projectId)?.delete(key);
  }

  private evictFor(incoming: number): void {
    while (this.bytes + incoming > this.budgetBytes && this.files.size > 0) {
      const [key, file] = this.files.entries().next().value as [string, CachedFile];
      if (file.hot) {
        file.hot = false;
        this.files.delete(key); // second chance: to the back of the queue
        this.files.set(key, file);
      } else {
        this.drop(key);
      }
    }
  }
}
