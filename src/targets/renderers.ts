import type { Settings } from "../config/settings.ts";
import type { Db } from "../storage/db.ts";
import { FileRenderer, type ObjectRenderer } from "./render.ts";

/**
 * The renderer of the server's CDN objects (render.ts), made in one place for the server
 * (`TargetContext.renderer`) and for `phrasebook mirror sync`, which must make every object
 * exactly as the server's mirror does (docs/deploy.md "Object storage and CDN purge").
 */
export function cdnRenderer({ settings }: { settings: Settings; db: Db }): ObjectRenderer {
  return new FileRenderer(settings.dataDir);
}
