import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_CONTROL_LATEST, CACHE_CONTROL_PINNED } from "../bundles/urls.ts";
import { releaseDir } from "../bundles/layout.ts";
import { CONTENT_TYPES, type BundleFormat } from "../formats/registry.ts";
import type { ObjectSource, PutOp } from "./cdn-paths.ts";

/** An object as the server's own CDN answers it: the bytes and the headers a copy must carry. */
export interface RenderedObject {
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
}

/**
 * Makes the object a put of `pathOps` names, exactly as the CDN answers its path
 * (docs/architecture.md "Publish targets"): the same bytes, `Content-Type` and `Cache-Control`.
 * Null when its source is gone (a release deleted since): a later change of the record removes
 * the path, so the put is skipped.
 */
export interface ObjectRenderer {
  render(op: PutOp): Promise<RenderedObject | null>;
}

/**
 * The renderers of each kind of source (cdn-paths.ts `ObjectSource`), as one: the server composes
 * it from the bundle files' and the delivery objects' (manifests, signatures, keys), so a target
 * makes every object the CDN serves without knowing the layers above it.
 */
export class ObjectRenderers implements ObjectRenderer {
  constructor(private readonly byKind: Partial<Record<ObjectSource["kind"], ObjectRenderer>>) {}

  render(op: PutOp): Promise<RenderedObject | null> {
    const renderer = this.byKind[op.source.kind];
    if (!renderer) throw new Error(`no renderer for objects of kind ${op.source.kind}`);
    return renderer.render(op);
  }
}

/** Bundle files, from the data directory. */
export class FileRenderer implements ObjectRenderer {
  constructor(private readonly dataDir: string) {}

  async render(op: PutOp): Promise<RenderedObject | null> {
    if (op.source.kind !== "file") throw new Error(`a bundle file renderer was given a ${op.source.kind}`);
    const { release, file } = op.source;
    const ext = file.slice(file.lastIndexOf(".") + 1) as BundleFormat;
    try {
      const bytes = await readFile(join(releaseDir(this.dataDir, release), file));
      return { bytes, contentType: CONTENT_TYPES[ext], cacheControl: op.moving ? CACHE_CONTROL_LATEST : CACHE_CONTROL_PINNED };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }
}
