/**
 * The import graph of src/ folded into folders (docs/architecture.md "Folders"): each top-level
 * folder under src/, and each root file (app.ts, server.ts...), is a node; an edge is an import
 * between two of them, type-only imports and `import()` included. Read by `make lint`'s architecture check and by
 * the test that holds the architecture's docs to the code (test/architecture/docs.test.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Only these may import the composition root. */
export const APP_IMPORTERS = new Set(["server.ts", "main.ts"]);

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?\s*["']([^"']+)["']/g;
/** `import("./x.ts")`: a module loaded when first used ("Start-up") is a dependency all the same. */
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;

export interface ImportGraph {
  /** from -> to -> an example import, "a.ts -> b.ts" */
  edges: Map<string, Map<string, string>>;
  /** Every node: the folders and root files that import or are imported. */
  nodes: string[];
  /** Imports of app.ts from outside the entry points. */
  appImports: string[];
}

export function importGraph(src: string): ImportGraph {
  /** The node a file belongs to: its top-level folder under src/, or the root file itself. */
  const nodeOf = (file: string) => {
    const rel = relative(src, file);
    const slash = rel.indexOf("/");
    return slash < 0 ? rel : rel.slice(0, slash);
  };
  const edges = new Map<string, Map<string, string>>();
  const appImports: string[] = [];
  const all = new Set<string>();
  for (const file of sourceFiles(src)) {
    all.add(nodeOf(file));
    const text = readFileSync(file, "utf8");
    for (const match of [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
      const spec = match[1]!;
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src + "/")) continue; // package.json and the like
      const from = nodeOf(file);
      const to = nodeOf(target);
      if (to === "app.ts" && !APP_IMPORTERS.has(relative(src, file))) appImports.push(`${relative(src, file)} imports app.ts; only ${[...APP_IMPORTERS].join(" and ")} may`);
      if (from === to) continue;
      let out = edges.get(from);
      if (!out) edges.set(from, (out = new Map()));
      if (!out.has(to)) out.set(to, `${relative(src, file)} -> ${relative(src, target)}`);
    }
  }
  return { edges, nodes: [...all].sort(), appImports };
}
