/**
 * Inputs are written once (docs/architecture.md "Input models"): each capability's limits are
 * named constants in its `model.ts`, the route schemas are built from them, and the dashboard API's
 * routes declare no field of their own. These checks keep it so:
 *
 * - every string and list a dashboard API route takes (body or query, as the app registered it) is
 *   bounded, by a value one of the model modules names;
 * - no route file under src/dashboard-api writes a bound as a number, or builds a string, list or
 *   number schema itself (its fields come from a model);
 * - the model modules write their bounds as named constants, and load no Elysia (services import
 *   them; only route files import Elysia);
 * - no other module restates a named limit as a number, in a pattern or a message, and a limit
 *   several capabilities share is one constant of common/limits.ts that their limits re-export;
 * - and, for the one way to fail (docs/architecture.md "Errors"), no route file of the dashboard API
 *   builds an error answer or returns an error object: they throw an HttpError.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { testApp } from "../helpers/app.ts";
import { ROOT } from "../helpers/server.ts";

const SRC = join(ROOT, "src");
const DASHBOARD_API = join(SRC, "dashboard-api");

/** Every `model.ts` under src/, the shared one in common/ included. */
const MODEL_FILES = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith("/model.ts"))
  .map((path) => join(SRC, path))
  .sort();

/** The numbers the model modules export by name. */
async function modelConstants(): Promise<Map<number, string[]>> {
  const named = new Map<number, string[]>();
  for (const file of MODEL_FILES) {
    for (const [name, value] of Object.entries(await import(file))) {
      if (typeof value === "number") named.set(value, [...(named.get(value) ?? []), name]);
    }
  }
  return named;
}

type Json = { [key: string]: unknown };

/**
 * What is unbounded, or bounded by a number no model names, in a JSON schema. `minLength: 1` is
 * "not empty", not a limit. Literals (`const`) are fixed words, not text.
 */
function unboundedParts(schema: Json, where: string, named: Map<number, unknown>): string[] {
  const problems: string[] = [];
  const bound = (key: string) => {
    const value = schema[key];
    if (value === undefined) return;
    if (key === "minLength" && value === 1) return;
    if (typeof value !== "number" || !named.has(value)) problems.push(`${where}: ${key} ${String(value)} is not a constant of a model module`);
  };
  if (schema.type === "string" && schema.const === undefined && schema.enum === undefined) {
    if (schema.maxLength === undefined) problems.push(`${where}: a string without maxLength`);
    bound("maxLength");
    bound("minLength");
  }
  if (schema.type === "array") {
    if (schema.maxItems === undefined) problems.push(`${where}: a list without maxItems`);
    bound("maxItems");
    bound("minItems");
    if (schema.items) problems.push(...unboundedParts(schema.items as Json, `${where}[]`, named));
  }
  for (const [name, property] of Object.entries((schema.properties as Record<string, Json> | undefined) ?? {})) {
    problems.push(...unboundedParts(property, `${where}.${name}`, named));
  }
  for (const variant of (schema.anyOf as Json[] | undefined) ?? []) problems.push(...unboundedParts(variant, where, named));
  return problems;
}

describe("input models", () => {
  test("every string and list a dashboard API route takes is bounded by a constant of a model module", async () => {
    const named = await modelConstants();
    const t = await testApp();
    try {
      const registered = ((await t.app.dashboardApi()) as unknown as { routes: { method: string; path: string; hooks?: { body?: Json; query?: Json } }[] }).routes;
      const routes = registered.filter((r) => r.path.startsWith("/dashboard/api/"));
      const checked = routes.filter((r) => r.hooks?.body || r.hooks?.query);
      expect(checked.length).toBeGreaterThanOrEqual(20);
      const problems = checked.flatMap((r) => [
        ...(r.hooks?.body ? unboundedParts(r.hooks.body, `${r.method} ${r.path} body`, named) : []),
        ...(r.hooks?.query ? unboundedParts(r.hooks.query, `${r.method} ${r.path} query`, named) : []),
      ]);
      expect(problems).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test("the check finds an unbounded string, an unbounded list and a bound no model names", () => {
    const named = new Map<number, unknown>([[512, ["KEY_MAX_LENGTH"]]]);
    const schema = {
      type: "object",
      properties: {
        key: { type: "string", maxLength: 512 },
        name: { type: "string" },
        tags: { type: "array", items: { type: "string", maxLength: 77 } },
        context: { anyOf: [{ type: "string", maxLength: 513 }, { type: "null" }] },
        status: { anyOf: [{ const: "missing", type: "string" }] },
      },
    };
    expect(unboundedParts(schema, "body", named)).toEqual([
      "body.name: a string without maxLength",
      "body.tags: a list without maxItems",
      "body.tags[]: maxLength 77 is not a constant of a model module",
      "body.context: maxLength 513 is not a constant of a model module",
    ]);
  });

  test("the dashboard API's route files declare no field schema and write no bound as a number", () => {
    const problems: string[] = [];
    for (const name of readdirSync(DASHBOARD_API).filter((n) => n.endsWith(".ts"))) {
      const text = readFileSync(join(DASHBOARD_API, name), "utf8");
      for (const [i, line] of text.split("\n").entries()) {
        const where = `src/dashboard-api/${name}:${i + 1}`;
        if (/\b(?:maxLength|minLength|maxItems|minItems|maximum|minimum)\s*:\s*[\d(]/.test(line)) problems.push(`${where}: a bound written as a number`);
        if (/\bt\.(?:String|Array|Number|Integer|Numeric)\s*\(/.test(line)) problems.push(`${where}: a field schema of its own (build it in the capability's model.ts)`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the dashboard API fails only by throwing: no route or guard builds an error answer itself", () => {
    const problems: string[] = [];
    for (const name of readdirSync(DASHBOARD_API).filter((n) => n.endsWith(".ts"))) {
      const text = readFileSync(join(DASHBOARD_API, name), "utf8");
      for (const [i, line] of text.split("\n").entries()) {
        const where = `src/dashboard-api/${name}:${i + 1}`;
        if (/new Response\(|\.toResponse\(|errorBody\(/.test(line)) problems.push(`${where}: builds an answer by hand`);
        if (/\bstatus\(\s*[45]\d\d|set\.status\s*=\s*[45]\d\d|\berror\(\s*[45]\d\d/.test(line)) problems.push(`${where}: answers a failure without throwing`);
        if (/return\s*\{\s*"?error"?\s*:/.test(line)) problems.push(`${where}: returns an error object`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("model modules name their bounds and load no Elysia", () => {
    expect(MODEL_FILES.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(["accounts/model.ts", "authoring/model.ts", "common/model.ts", "releases/model.ts", "tokens/model.ts", "webhooks/model.ts"]));
    const problems: string[] = [];
    for (const file of MODEL_FILES.filter((f) => !f.includes("/public-api/"))) {
      const text = readFileSync(file, "utf8");
      if (/from\s+["']elysia["']/.test(text)) problems.push(`${relative(SRC, file)} imports elysia`);
      for (const [i, line] of text.split("\n").entries()) {
        // A bound in a schema names its constant; only "not empty" (minLength: 1) is a plain number.
        if (/\b(?:maxLength|maxItems|minItems|maximum|minimum)\s*:\s*\d|\bminLength\s*:\s*(?!1\b)\d/.test(line)) problems.push(`${relative(SRC, file)}:${i + 1}: a bound written as a number`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("no module restates a named limit as a number: neither a pattern bounded by it nor a message that says it", async () => {
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".ts"));
    const limits = new Map<number, string>();
    for (const path of files.filter((p) => p.endsWith("limits.ts"))) {
      for (const [name, value] of Object.entries(await import(join(SRC, path)))) {
        if (typeof value === "number" && value >= 8) limits.set(value, name);
      }
    }
    const problems: string[] = [];
    for (const path of files.filter((p) => !p.endsWith("limits.ts"))) {
      for (const [i, line] of readFileSync(join(SRC, path), "utf8").split("\n").entries()) {
        if (/^\s*(\*|\/\/|\/\*\*)/.test(line)) continue; // a comment may give an example
        const said = [
          // A pattern's upper bound (`[A-Za-z0-9-]{1,35}`); below 20 they are the grammar's own (a subtag's 8).
          ...[...line.matchAll(/\{\d+,([0-9]+)\}/g)].map((m) => m[1]!).filter((n) => Number(n) >= 20),
          ...[...line.matchAll(/\bat (?:least|most) ([0-9][0-9_,]*) (?:characters|items|bytes)/g)].map((m) => m[1]!.replace(/[_,]/g, "")),
        ];
        for (const n of said) {
          const name = limits.get(Number(n));
          if (name) problems.push(`${path}:${i + 1}: ${n} is ${name}; build it from the constant`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("limits modules import nothing but the shared limits, and the dashboard's forms take their maxlength from them", () => {
    const problems: string[] = [];
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".ts"));
    for (const path of files.filter((p) => p.endsWith("limits.ts"))) {
      const text = readFileSync(join(SRC, path), "utf8");
      if (/^import\b/m.test(text)) problems.push(`${path} imports something: the dashboard's script and the client read it without the schemas`);
      for (const [, from] of text.matchAll(/^export\b[^;]*\bfrom\s+["']([^"']+)["']/gm)) {
        if (path === "common/limits.ts" || !from!.endsWith("/common/limits.ts")) problems.push(`${path} re-exports ${from}: only common/limits.ts, which imports nothing`);
      }
    }
    for (const path of files.filter((p) => p.startsWith("dashboard/client/"))) {
      for (const [i, line] of readFileSync(join(SRC, path), "utf8").split("\n").entries()) {
        if (/\bmaxlength\s*:\s*\d/.test(line)) problems.push(`${path}:${i + 1}: a maxlength written as a number`);
      }
    }
    expect(problems).toEqual([]);
  });
});
