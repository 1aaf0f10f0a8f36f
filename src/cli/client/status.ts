import { CliError } from "../../common/errors.ts";
import type { ParsedArgs } from "../args.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig } from "./config.ts";
import { print } from "../output.ts";
import { PROBLEM_LINES_MAX } from "./limits.ts";
import { problemLines, type ProblemLine } from "./problems.ts";
import { tokenProject } from "./project.ts";

/** The scope `status` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "write or publish";

/** A language of GET /projects/:pid/progress; `errors` and `warnings` count message problems (docs/product.md §7). */
interface LanguageProgress {
  code: string;
  is_base_language: boolean;
  translated: number;
  approved: number;
  /** The keys this language needs (absent from servers before i18next plural forms). */
  total_keys?: number;
  errors?: number;
  warnings?: number;
}

interface Problem {
  language_code: string;
  severity: "error" | "warning";
}

/** --min-progress as a number and as an exact fraction (digits over a power of ten). */
interface MinProgress {
  value: number;
  numerator: bigint;
  denominator: bigint;
}

function minProgress(raw: string | undefined): MinProgress | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim().replace(/%$/, "");
  const match = /^(\d{1,3})(?:\.(\d{1,6}))?$/.exec(text);
  const value = Number(text);
  if (!match || value > 100) throw new CliError(`--min-progress must be a percentage from 0 to 100 (got "${raw}")`, 1);
  const decimals = match[2] ?? "";
  return { value, numerator: BigInt(match[1]! + decimals), denominator: 10n ** BigInt(decimals.length) };
}

/**
 * Whether `part` of `total` is below the percentage, on the exact fraction (docs/automation.md
 * "status"): 23 of 40 is 57.5 %, which passes --min-progress 57.5, whatever floating point says.
 */
function below(part: number, total: number, min: MinProgress): boolean {
  if (total === 0) return false;
  return BigInt(part) * 100n * min.denominator < min.numerator * BigInt(total);
}

/**
 * Per-language problem counts: from the progress answer when it carries them, else counted from
 * the problem list; undefined when the server reports neither.
 */
async function problemCounts(client: PhrasebookClient, pid: string, languages: LanguageProgress[]): Promise<Map<string, { errors: number; warnings: number }> | undefined> {
  if (languages.every((l) => typeof l.errors === "number" && typeof l.warnings === "number")) {
    return new Map(languages.map((l) => [l.code, { errors: l.errors!, warnings: l.warnings! }]));
  }
  let items: Problem[];
  try {
    items = (await client.dashboard<{ items: Problem[] }>("status", "GET", `/projects/${pid}/problems`)).items;
  } catch {
    return undefined;
  }
  const counts = new Map(languages.map((l) => [l.code, { errors: 0, warnings: 0 }]));
  for (const p of items) {
    const c = counts.get(p.language_code);
    if (c) c[p.severity === "error" ? "errors" : "warnings"]++;
  }
  return counts;
}

/** Floored to one decimal, so 99.96 % never shows as 100 % (docs/automation.md "status"). */
const shown = (part: number, total: number) => `${total === 0 ? 100 : Math.floor((part * 1000) / total) / 10}%`;

/** `phrasebook status [--min-progress PCT] [--fail-on-errors]` (docs/product.md §6). */
export async function runStatus(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`status takes no FILE (got "${args.words[1]}")`, 1);
  const min = minProgress(args.flags["--min-progress"]);
  const failOnErrors = args.switches.has("--fail-on-errors");
  const client = new PhrasebookClient(connectionFrom(args, await loadConfig(args)), SCOPE);
  const project = await tokenProject(client, "status");
  const progress = await client.dashboard<{ total_keys: number; languages: LanguageProgress[] }>("status", "GET", `/projects/${project.id}/progress`);
  const counts = await problemCounts(client, project.id, progress.languages);
  const width = Math.max(...progress.languages.map((l) => l.code.length), 2);

  const lines = [`${project.name}: ${progress.total_keys} keys`];
  const under: string[] = [];
  const withErrors: string[] = [];
  for (const l of progress.languages) {
    // A language's own total leaves out the i18next plural forms it does not use
    // (docs/messages.md "i18next plural forms"); older servers send only the project's.
    const total = typeof l.total_keys === "number" ? l.total_keys : progress.total_keys;
    const c = counts?.get(l.code);
    const problems = c ? `${c.errors} errors, ${c.warnings} warnings` : "errors and warnings unknown (the server does not report them)";
    lines.push(`${l.code.padEnd(width)}  ${l.translated} translated (${shown(l.translated, total)}), ${l.approved} approved, ${total - l.translated} missing, ${problems}${l.is_base_language ? "  (base)" : ""}`);
    if (min !== undefined && below(l.translated, total, min)) under.push(`${l.code} (${shown(l.translated, total)})`);
    if (c && c.errors > 0) withErrors.push(`${l.code} (${c.errors})`);
  }
  if (counts && [...counts.values()].some((c) => c.errors + c.warnings > 0)) {
    const listed = await client.dashboard<{ items: ProblemLine[]; page_info?: { total_count?: number } }>("status", "GET", `/projects/${project.id}/problems?page_size=${PROBLEM_LINES_MAX}`);
    if (Array.isArray(listed.items) && listed.items.length > 0) lines.push("problems:", ...problemLines(listed.items, Number(listed.page_info?.total_count) || listed.items.length));
  }
  await print(lines.join("\n") + "\n");
  const failures: string[] = [];
  if (under.length > 0) failures.push(`below ${min!.value}% translated: ${under.join(", ")}`);
  if (failOnErrors && !counts) throw new CliError("status --fail-on-errors: the server does not report message errors", 2);
  if (failOnErrors && withErrors.length > 0) failures.push(`messages with errors: ${withErrors.join(", ")}`);
  if (failures.length > 0) throw new CliError(failures.join("; "), 3);
  return 0;
}
