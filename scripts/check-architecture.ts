/**
 * `make lint`'s architecture check (docs/architecture.md "Folders"): folds the imports between
 * files of src/ into imports between its top-level folders (a root file such as app.ts counts as
 * its own node) and fails on any cycle, and on any import of app.ts from outside the entry points.
 * Type-only imports count too: they are dependencies of the design, if not of the running program.
 *
 *   bun scripts/check-architecture.ts           check, print cycles and exit 1 if any
 *   bun scripts/check-architecture.ts --graph   also print each folder's direct dependencies
 *   bun scripts/check-architecture.ts --src DIR check another tree (the check's own test)
 */
import { join, resolve } from "node:path";
import { importGraph } from "./architecture-graph.ts";

const ROOT = resolve(import.meta.dir, "..");
const srcFlag = process.argv.indexOf("--src");
const SRC = srcFlag > 0 ? resolve(process.argv[srcFlag + 1]!) : join(ROOT, "src");

const graph = importGraph(SRC);
const edges = graph.edges;
const problems: string[] = [...graph.appImports];

// Tarjan's strongly connected components: any component of more than one node is a cycle.
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const components: string[][] = [];
let counter = 0;
function visit(v: string): void {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
  }
  if (low.get(v) === index.get(v)) {
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const v of nodes) if (!index.has(v)) visit(v);

for (const component of components) {
  const members = new Set(component);
  const links = component.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => members.has(to)).map(([, example]) => `    ${example}`));
  problems.push(`import cycle between ${component.join(", ")}:\n${links.join("\n")}`);
}

if (process.argv.includes("--graph")) {
  for (const v of nodes) console.log(`${v.padEnd(16)} -> ${[...(edges.get(v)?.keys() ?? [])].sort().join(", ") || "(nothing)"}`);
}
if (problems.length > 0) {
  console.error(`architecture check failed:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`architecture: ${nodes.length} folders and root files, no import cycle`);
