/**
 * A doc that describes the code is held by a test (docs/architecture.md "Tests"): the folder
 * diagram and the edge table of docs/architecture.md "Folders", and the README's layer table, are
 * compared with the imports of src/ (the same graph `make lint` checks). A folder added without a
 * line, an edge that appears or goes, a folder put in a layer it imports from above: each fails
 * here, naming what to change.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importGraph } from "../../scripts/architecture-graph.ts";
import { SETTINGS } from "../../src/config/settings.ts";
import { ROOT } from "../helpers/server.ts";

const graph = importGraph(join(ROOT, "src"));
const architecture = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
/** Every folder of src/ and root file but the type declarations. */
const NODES = graph.nodes.filter((n) => n !== "types.d.ts");
const FOLDERS = NODES.filter((n) => !n.endsWith(".ts"));
/** Every row of the edge table says "also imports common" once, below it, instead of listing it. */
const BASE = "common";

/**
 * The names in backticks of a piece of Markdown that are nodes of the graph (`cli/` is `cli`),
 * outside parentheses: what a row explains in parentheses is not what it lists.
 */
function nodesIn(cell: string): string[] {
  let depth = 0;
  let listed = "";
  for (const ch of cell) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) listed += ch;
  }
  return [...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "")).filter((name) => NODES.includes(name));
}

/** The rows of the first Markdown table after `heading` in `text`: each row's cells. */
function tableAfter(text: string, heading: string): string[][] {
  const from = text.indexOf(heading);
  if (from < 0) throw new Error(`"${heading}" is not in the document`);
  const lines = text.slice(from).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|").slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

function actualImports(node: string): string[] {
  return [...(graph.edges.get(node)?.keys() ?? [])].filter((n) => n !== BASE && n !== "types.d.ts").sort();
}

describe("docs/architecture.md is the code's", () => {
  test("the folder diagram names every folder of src/", () => {
    const diagram = architecture.slice(architecture.indexOf("## Folders"), architecture.indexOf("The edges, precisely"));
    const missing = FOLDERS.filter((f) => !new RegExp(`(^|[\\s─►│├└])${f}/`, "m").test(diagram));
    expect(missing, `add these folders to the diagram of docs/architecture.md "Folders"`).toEqual([]);
  });

  test("the edge table has a row for every folder and root file, listing exactly what it imports", () => {
    const rows = tableAfter(architecture, "The edges, precisely");
    const documented = new Map<string, string[]>();
    for (const [who, imports] of rows) for (const node of nodesIn(who!)) documented.set(node, [...new Set(nodesIn(imports ?? ""))].filter((n) => n !== BASE).sort());
    const wrong: string[] = [];
    for (const node of NODES) {
      if (node === BASE) continue;
      const doc = documented.get(node);
      const actual = actualImports(node);
      if (!doc) wrong.push(`${node}: no row (it imports ${actual.join(", ") || "nothing"})`);
      else if (doc.join() !== actual.join()) wrong.push(`${node}: the row says ${doc.join(", ") || "nothing"}, the code imports ${actual.join(", ") || "nothing"}`);
    }
    for (const node of documented.keys()) if (!NODES.includes(node)) wrong.push(`${node}: a row for something src/ does not have`);
    expect(wrong, 'fix the edge table of docs/architecture.md "Folders"').toEqual([]);
  });
});

describe("the README's layer table is the code's", () => {
  const rows = tableAfter(readme, "| layer | folders |");
  const layerOf = new Map<string, number>();
  rows.forEach(([, cell], i) => {
    for (const node of nodesIn(cell!)) if (!layerOf.has(node)) layerOf.set(node, i);
  });

  test("every folder of src/ is in exactly one layer", () => {
    expect(FOLDERS.filter((f) => !layerOf.has(f)), "add these folders to the README's layer table").toEqual([]);
    const twice = FOLDERS.filter((f) => rows.filter(([, cell]) => nodesIn(cell!).includes(f)).length > 1);
    expect(twice, "these folders are in more than one layer of the README's table").toEqual([]);
  });

  test("a folder imports only folders of its own layer or the layers below it", () => {
    const upward: string[] = [];
    for (const [node, layer] of layerOf) {
      for (const to of actualImports(node)) {
        const toLayer = layerOf.get(to);
        if (toLayer !== undefined && toLayer < layer) upward.push(`${node} (${rows[layer]![0]}) imports ${to} (${rows[toLayer]![0]})`);
      }
    }
    expect(upward, "move these folders to the right layer of the README's table").toEqual([]);
  });
});

// The README's table is the full one; docs/product.md's lists the interface's settings and links to it.
describe.each([["README.md", "## Settings"]])("the settings table of %s is the settings'", (file, heading) => {
  const rows = tableAfter(readFileSync(join(ROOT, file), "utf8"), heading);
  const named = rows.map(([variables, flags]) => ({ variables: [...variables!.matchAll(/`(PHRASEBOOK_[A-Z0-9_]+)`/g)].map((m) => m[1]!), flags: [...(flags ?? "").matchAll(/`(--[a-z0-9-]+)`/g)].map((m) => m[1]!) }));

  test("every setting is in the table with its flag, and the table names no setting that does not exist", () => {
    const documented = new Map<string, string | undefined>();
    for (const row of named) row.variables.forEach((v, i) => documented.set(v, row.flags[i]));
    const missing = SETTINGS.filter((s) => documented.get(s.env) !== s.flag).map((s) => `${s.env} ${s.flag}${documented.has(s.env) ? ` (the table says ${documented.get(s.env)})` : ""}`);
    expect(missing, `add these settings to the table of ${file}, with their flags`).toEqual([]);
    const known = new Set(SETTINGS.map((s) => s.env));
    expect([...documented.keys()].filter((v) => !known.has(v)), `the table of ${file} names settings src/config/settings.ts does not have`).toEqual([]);
  });
});
