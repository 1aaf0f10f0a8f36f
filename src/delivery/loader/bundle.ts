/**
 * Build-time bundling of the web loader, imported with `{ type: "macro" }` (as the Node client is,
 * src/cli/client/bundle.ts): the module is inside the executable and nothing is read at run time.
 */
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..", "..");

/** `/client/ota.mjs`: one ES module for browsers and Node 18+ (docs/delivery.md "The loader"). */
export function bundleLoader(): string {
  const entry = join(ROOT, "src/delivery/loader/ota.ts");
  const result = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", "--minify"], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`bundling the web loader failed:\n${result.stderr.toString()}${result.stdout.toString()}`);
  return result.stdout.toString();
}
