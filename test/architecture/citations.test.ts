/**
 * The repository stands on its own (docs/architecture.md "Tests"): code, tests and benchmarks cite
 * the project's own docs/, which exist, and never a file outside the repository, a review's list of
 * findings or an issue tracker that a reader of the repository does not have.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";

const FOLDERS = ["src", "test", "bench", "scripts"];
const TEXT = /\.(ts|js|mjs|sh|md)$/;

function files(): string[] {
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for (const path of readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })) {
      if (TEXT.test(path) && !path.includes("node_modules")) found.push(join(folder, path));
    }
  }
  return found;
}

/** What only a reader with something besides the repository could follow. */
const OUTSIDE = [
  { what: "a file outside the repository", pattern: /\.\.\/shared\/|CONTRACTS\.md|\/work\/(?:shared|wt|main)\b/ },
  { what: "a review's findings", pattern: /\b(?:hardening|review(?:'s)?) findings? \d+|\bfinding \d+:|\bas (?:it was )?in the review\b|\bthe review measured\b/i },
  { what: "an issue number", pattern: /\bissue #?\d+\b/i },
];

describe("citations", () => {
  test("every docs/ page cited by code, tests or benchmarks exists", () => {
    const missing: string[] = [];
    for (const path of files()) {
      for (const [cited] of readFileSync(join(ROOT, path), "utf8").matchAll(/\bdocs\/[A-Za-z0-9_-]+\.md\b/g)) {
        if (!existsSync(join(ROOT, cited))) missing.push(`${path}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("nothing cites a file outside the repository, a review's findings or an issue number", () => {
    const problems: string[] = [];
    const self = join("test", "architecture", "citations.test.ts");
    for (const path of files().filter((p) => p !== self)) {
      for (const [i, line] of readFileSync(join(ROOT, path), "utf8").split("\n").entries()) {
        for (const { what, pattern } of OUTSIDE) if (pattern.test(line)) problems.push(`${path}:${i + 1}: cites ${what}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
