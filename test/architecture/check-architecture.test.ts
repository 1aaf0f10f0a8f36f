/** The `make lint` architecture check (docs/architecture.md "Folders") on trees made for the purpose. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT, tempDir } from "../helpers/server.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = tempDir("phrasebook-arch-");
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function check(dir: string) {
  const r = Bun.spawnSync([process.execPath, join(ROOT, "scripts/check-architecture.ts"), "--src", dir]);
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

describe("architecture check", () => {
  test("the real src/ has no cycle between its folders", () => {
    const r = check(join(ROOT, "src"));
    expect(r.out).toContain("no import cycle");
    expect(r.code).toBe(0);
  });

  test("a cycle between two folders fails and names a file on each side, type-only imports included", () => {
    const r = check(
      tree({
        "a/x.ts": 'import { y } from "../b/y.ts";\nexport const x = y;\n',
        "b/y.ts": 'import type { Z } from "../a/z.ts";\nexport const y = 1 as unknown as Z;\n',
        "a/z.ts": "export type Z = number;\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain("import cycle between a, b");
    expect(r.out).toContain("a/x.ts -> b/y.ts");
    expect(r.out).toContain("b/y.ts -> a/z.ts");
  });

  test("imports inside one folder never count, and a tree is fine", () => {
    const r = check(tree({ "a/x.ts": 'import "./y.ts";\n', "a/y.ts": 'import { x } from "./x.ts";\nimport "../b/z.ts";\n', "b/z.ts": "export {};\n" }));
    expect(r.code).toBe(0);
  });

  test("only server.ts and main.ts may import app.ts", () => {
    const r = check(tree({ "app.ts": "export const app = 1;\n", "server.ts": 'import "./app.ts";\n', "cdn/handler.ts": 'import { app } from "../app.ts";\n' }));
    expect(r.code).toBe(1);
    expect(r.out).toContain("cdn/handler.ts imports app.ts");
  });
});
