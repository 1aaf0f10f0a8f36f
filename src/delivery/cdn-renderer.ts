import type { PathRecord } from "../changes/paths.ts";
import type { Settings } from "../config/settings.ts";
import type { Db } from "../storage/db.ts";
import { FileRenderer, ObjectRenderers, type ObjectRenderer } from "../targets/render.ts";

/**
 * The renderer of every object the server's CDN serves (targets/render.ts): bundle files from the
 * data directory, and manifests, their signatures and key files made as the CDN makes them
 * (docs/delivery.md), loaded on the first one a target asks for. Made in one place for the server
 * (`TargetContext.renderer`) and for `phrasebook mirror sync`, which must make every object
 * exactly as the server's mirror does (docs/deploy.md "Object storage and CDN purge").
 */
export function cdnRenderer({ settings, db, paths }: { settings: Settings; db: Db; paths: PathRecord }): ObjectRenderer {
  let delivery: Promise<ObjectRenderer> | undefined;
  const deliveryObjects: ObjectRenderer = {
    async render(op) {
      delivery ??= import("./render.ts").then((m) => m.deliveryRenderer(db, settings, paths));
      return (await delivery).render(op);
    },
  };
  return new ObjectRenderers({ file: new FileRenderer(settings.dataDir), manifest: deliveryObjects, manifest_signature: deliveryObjects, key: deliveryObjects, key_signature: deliveryObjects });
}
