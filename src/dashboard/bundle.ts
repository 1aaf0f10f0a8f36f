/**
 * Build-time helpers, imported with `{ type: "macro" }`: Bun runs them while it transpiles (at
 * `bun src/main.ts` start and during `bun build --compile`), and inlines the returned strings. So the
 * client bundle and stylesheet live inside the executable, and nothing is read from disk or the
 * network at run time. Bun.build cannot run inside a macro (the bundler would wait on itself), so the
 * bundler's CLI runs as a child process of the same bun.
 */
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

function bunBuild(entry: string, extra: string[]): string {
  const result = Bun.spawnSync([process.execPath, "build", join(ROOT, entry), "--minify", ...extra], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`bundling ${entry} failed:\n${result.stderr.toString()}${result.stdout.toString()}`);
  return result.stdout.toString();
}

/** The dashboard's script: one minified ES module. */
export function bundleScript(entry: string): string {
  return bunBuild(entry, ["--target=browser", "--format=esm"]);
}

/** A stylesheet, minified by Bun's CSS bundler. */
export function bundleStyle(entry: string): string {
  return bunBuild(entry, []);
}

