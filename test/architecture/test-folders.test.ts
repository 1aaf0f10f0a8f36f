/**
 * Tests are found by folder, not by grep (docs/architecture.md "Tests"): every capability of src/
 * has its tests in the test folder of the same name, and every other test folder is one of the
 * suites that cross capabilities on purpose.
 */
import { expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";

/** The suites across capabilities, and what they hold. */
const CROSS_CUTTING: Record<string, string> = {
  adversarial: "attacks on every surface, each a finding that once held",
  architecture: "the rules of the code and of the docs that describe it",
  faults: "the disk, the lock and the process failing under a change",
  roundtrip: "a team's files through push and pull in each syntax",
  teams: "a suite per kind of team walking its day through the binary",
  helpers: "shared steps, no tests",
  fixtures: "files the tests read, no tests",
};

const folders = (dir: string) => readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());
const holdsTests = (dir: string): boolean =>
  readdirSync(dir).some((name) => name.endsWith(".test.ts") || (statSync(join(dir, name)).isDirectory() && holdsTests(join(dir, name))));

test("every folder of src/ has a test folder of the same name, with tests in it", () => {
  const missing = folders(join(ROOT, "src")).filter((f) => !folders(join(ROOT, "test")).includes(f) || !holdsTests(join(ROOT, "test", f)));
  expect(missing, "add test/<folder>/ for these capabilities of src/").toEqual([]);
});

test("every test folder is a capability of src/ or a suite across capabilities", () => {
  const capabilities = new Set(folders(join(ROOT, "src")));
  const stray = folders(join(ROOT, "test")).filter((f) => !capabilities.has(f) && !(f in CROSS_CUTTING));
  expect(stray, "move these tests to the folder of the capability they test, or name the suite in CROSS_CUTTING").toEqual([]);
});
