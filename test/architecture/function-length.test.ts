/**
 * The dashboard's pages are components, not long functions of hand-made DOM (docs/decisions.md
 * "Pages as components"): no function in src/dashboard/client is over 80 lines, nested functions
 * counted in their parent's length. scripts/function-lengths.ts measures; this holds the rule.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { functionLengths, functionsOver } from "../../scripts/function-lengths.ts";
import { ROOT } from "../helpers/server.ts";

export const PAGE_FUNCTION_MAX_LINES = 80;

const lines = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join("\n");

describe("function length", () => {
  test("no function of the dashboard's client is over 80 lines", () => {
    const over = functionsOver(PAGE_FUNCTION_MAX_LINES, join(ROOT, "src/dashboard/client"));
    expect(over.map((f) => `${f.file.slice(ROOT.length + 1)}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });

  test("every kind of function is measured, nested ones inside their parent, and braces in text are not code", () => {
    const source = [
      "export function page(a: string): Promise<{ x: number }> {",
      '  const re = /\\{[a-z]+\\}$/g; const s = "}}}"; const t = `${a.replace(/}/g, "")} }`;',
      "  if (a) {",
      lines(3),
      "  }",
      "  const inner = async (b: number): Promise<void> => {",
      lines(2),
      "  };",
      "}",
      "class Grid {",
      "  draw(): void {",
      lines(81),
      "  }",
      "}",
      "const arrow = () => {",
      "  return 1;",
      "};",
    ].join("\n");
    const found = functionLengths(source).map((f) => [f.name, f.lines]);
    expect(found).toEqual([
      ["inner", 4],
      ["page", 12],
      ["draw", 83],
      ["arrow", 3],
    ]);
  });
});
