import type { PathRecord } from "../changes/paths.ts";
import type { Settings } from "../config/settings.ts";
import type { Db } from "../storage/db.ts";
import type { PutOp } from "../targets/cdn-paths.ts";
import type { ObjectRenderer, RenderedObject } from "../targets/render.ts";
import { keyFileOf } from "./keys.ts";
import { manifestSignature } from "./manifest.ts";
import { cacheControlOf, Delivery, MANIFEST_CONTENT_TYPE, TEXT_CONTENT_TYPE } from "./objects.ts";
import { SIGNATURE_SUFFIX } from "./protocol/manifest.ts";

/**
 * Manifests, their signatures and key files as the CDN answers them (docs/architecture.md
 * "Publish targets"): the same bytes, `Content-Type` and `Cache-Control`, made from what the
 * path record's change says (the release, its slug, the sequence, the key). Null when the release
 * or the key is gone: a later change removes the path.
 */
export class DeliveryRenderer implements ObjectRenderer {
  constructor(private readonly delivery: Delivery) {}

  async render(op: PutOp): Promise<RenderedObject | null> {
    const source = op.source;
    const cacheControl = cacheControlOf(op.moving);
    switch (source.kind) {
      case "manifest":
      case "manifest_signature": {
        const m = source.manifest;
        const made = await this.delivery.recordedManifest(m.release, source.project_slug, m.release_slug, m.sequence);
        if (!made) return null;
        if (source.kind === "manifest") return { bytes: made.bytes, contentType: MANIFEST_CONTENT_TYPE, cacheControl };
        const key = this.delivery.keyOf(made.release.projectId, m.key);
        if (!key) return null;
        const path = op.path.slice(0, -SIGNATURE_SUFFIX.length);
        return { bytes: manifestSignature(made.bytes, key, m.sequence, m.release, path), contentType: TEXT_CONTENT_TYPE, cacheControl };
      }
      case "key":
      case "key_signature": {
        const key = this.delivery.keyOfProject(source.project, source.n);
        if (!key) return null;
        if (source.kind === "key") return { bytes: new TextEncoder().encode(keyFileOf(key)), contentType: TEXT_CONTENT_TYPE, cacheControl };
        if (key.signature === null) return null;
        return { bytes: new TextEncoder().encode(key.signature), contentType: TEXT_CONTENT_TYPE, cacheControl };
      }
      default:
        throw new Error(`the delivery renderer was given a ${source.kind}`);
    }
  }
}

export function deliveryRenderer(db: Db, settings: Pick<Settings, "dataDir" | "cdnUrl">, paths: PathRecord): DeliveryRenderer {
  return new DeliveryRenderer(new Delivery(db, settings, paths));
}
