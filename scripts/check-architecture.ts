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
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const srcFlag = process.argv.indexOf("--src");
const SRC = srcFlag > 0 ? resolve(process.argv[srcFlag + 1]!) : join(ROOT, "src");
/** Only these may import the composition root. */
const APP_IMPORTERS = new Set(["server.ts", "main.ts"]);

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?\s*["']([^"']+)["']/g;

/** The node a file belongs to: its top-level folder under src/, or the root file itself. */
function nodeOf(file: string): string {
  const rel = relative(SRC, file);
  const slash = rel.indexOf("/");
  return slash < 0 ? rel : rel.slice(0, slash);
}

const edges = new Map<string, Map<string, string>>(); // from -> to -> an example "a.ts -> b.ts"
const problems: string[] = [];

for (const file of sourceFiles(SRC)) {
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1]!;
    if (!spec.startsWith(".")) continue;
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(SRC + "/")) continue; // package.json and the like
    const from = nodeOf(file);
    const to = nodeOf(target);
    if (to === "app.ts" && !APP_IMPORTERS.has(relative(SRC, file))) problems.push(`${relative(SRC, file)} imports app.ts; only ${[...APP_IMPORTERS].join(" and ")} may`);
    if (from === to) continue;
    let out = edges.get(from);
    if (!out) edges.set(from, (out = new Map()));
    if (!out.has(to)) out.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
  }
}

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
