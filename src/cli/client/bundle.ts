/**
 * Build-time bundling of the Node client, imported with `{ type: "macro" }` (like the dashboard's
 * script, src/dashboard/bundle.ts): Bun runs it while it transpiles, so the script is inside the
 * executable and nothing is read from disk at run time. Bun.build cannot run inside a macro, so
 * the bundler's CLI runs as a child process of the same bun.
 */
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..", "..");

/** `node phrasebook.mjs`: the client commands for Node 18+, one ES module (docs/automation.md "The Node client"). */
export function bundleNodeClient(): string {
  const entry = join(ROOT, "src/cli/client/node.ts");
  const result = Bun.spawnSync([process.execPath, "build", entry, "--target=node", "--format=esm", "--minify"], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`bundling the Node client failed:\n${result.stderr.toString()}${result.stdout.toString()}`);
  return `#!/usr/bin/env node\n${result.stdout.toString()}`;
}
