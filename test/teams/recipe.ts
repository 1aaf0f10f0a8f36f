/**
 * The CI recipe of docs/automation.md section 3, run as printed: the first-import block and the
 * GitHub Actions workflow are read from the page itself, so a change to the page is a change to
 * what the team suites run. Each `run:` step runs as GitHub runs it (`bash -eo pipefail`), in the
 * repository, after the step before it succeeded; `${{ }}` expressions are the few the workflow
 * uses, and any other fails the test loudly. Steps of the app's own build (Flutter) and `uses:`
 * actions are not Phrasebook's and are passed over.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT } from "../helpers/server.ts";

const PAGE = join(ROOT, "docs/automation.md");

/** The fenced block of `lang` whose first line is `first`. */
function block(lang: string, first: string): string {
  const text = readFileSync(PAGE, "utf8");
  for (const m of text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
    if (m[1] === lang && m[2]!.split("\n")[0] === first) return m[2]!;
  }
  throw new Error(`docs/automation.md has no ${lang} block starting "${first}"`);
}

export const firstImportBlock = () => block("sh", "# once, before the workflow's first run");
export const workflowBlock = () => block("yaml", "# .github/workflows/strings.yml");

export interface GitHubEvent {
  event_name: "push" | "pull_request";
  ref: string;
}

export interface StepRun {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** One expression of the workflow's `if:` or `${{ }}`. */
function evaluate(expression: string, event: GitHubEvent, env: Record<string, string>): string | boolean {
  const e = expression.trim();
  const refName = event.ref.replace(/^refs\/(heads|tags)\//, "");
  const values: Record<string, string> = { "github.event_name": event.event_name, "github.ref": event.ref, "github.ref_name": refName, "vars.PHRASEBOOK_SERVER": env.PHRASEBOOK_SERVER!, "secrets.PHRASEBOOK_TOKEN": env.PHRASEBOOK_TOKEN! };
  if (e in values) return values[e]!;
  let m = /^([\w.]+) == '([^']*)'$/.exec(e);
  if (m && m[1]! in values) return values[m[1]!] === m[2];
  m = /^startsWith\(([\w.]+), '([^']*)'\)$/.exec(e);
  if (m && m[1]! in values) return values[m[1]!]!.startsWith(m[2]!);
  throw new Error(`the recipe test does not know the expression "${e}": teach test/teams/recipe.ts`);
}

const substitute = (text: string, event: GitHubEvent, env: Record<string, string>) => text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => String(evaluate(e, event, env)));

async function bash(script: string, cwd: string, env: Record<string, string>): Promise<Omit<StepRun, "name">> {
  const proc = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The first-import block, as a developer runs it from the repository's root. */
export async function runFirstImport(cwd: string, env: Record<string, string>): Promise<StepRun> {
  return { name: "first import", ...(await bash(firstImportBlock(), cwd, env)) };
}

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
}

/**
 * The workflow's steps for `event`, each run until one fails (as the job would stop there).
 * `env` is the job's outside world: the server and the token the variables hold.
 */
export async function runWorkflow(cwd: string, env: Record<string, string>, event: GitHubEvent): Promise<StepRun[]> {
  const workflow = parse(workflowBlock()) as { env: Record<string, string>; jobs: { sync: { steps: Step[] } } };
  const jobEnv = Object.fromEntries(Object.entries(workflow.env).map(([k, v]) => [k, substitute(v, event, env)]));
  const runs: StepRun[] = [];
  for (const step of workflow.jobs.sync.steps) {
    if (step.run === undefined || !/phrasebook\.mjs/.test(step.run)) continue; // actions and the app's own build
    if (step.if !== undefined && evaluate(step.if, event, env) !== true) continue;
    const run = { name: step.name ?? step.run, ...(await bash(substitute(step.run, event, env), cwd, jobEnv)) };
    runs.push(run);
    if (run.code !== 0) break;
  }
  return runs;
}

/** What a workflow run said, for an assertion's message. */
export const described = (runs: readonly StepRun[]) => runs.map((r) => `## ${r.name} (exit ${r.code})\n${r.stdout}${r.stderr}`).join("\n");
