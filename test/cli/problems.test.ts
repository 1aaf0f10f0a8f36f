/**
 * Problem lines of push, status and a blocked publish (docs/automation.md "status"): status prints
 * a problem once. A placeholder renamed in a translation is one mistake, which the checks find
 * twice (unknown and missing): it is one line, and a problem listed twice is printed once.
 */
import { describe, expect, test } from "bun:test";
import { problemLines, type ProblemLine } from "../../src/cli/client/problems.ts";

const unknown: ProblemLine = { key: "hello", language_code: "de", code: "placeholder_unknown", message: "`{nmae}` is not in the English text; use `{name}`" };
const missing: ProblemLine = { key: "hello", language_code: "de", code: "placeholder_missing", message: "`{name}` from the English text is missing" };

describe("one line per problem", () => {
  test("a renamed placeholder is one line, its unknown half, which names both", () => {
    expect(problemLines([unknown, missing])).toEqual(["  hello [de] placeholder_unknown: `{nmae}` is not in the English text; use `{name}`"]);
  });

  test("a placeholder missing without a rename, or in another language, stays its own line", () => {
    const other = { ...missing, message: "`{count}` from the English text is missing" };
    const french = { ...missing, language_code: "fr" };
    expect(problemLines([unknown, missing, other, french])).toHaveLength(3);
  });

  test("the same problem listed twice is printed once; the count of the rest is of problems not shown", () => {
    expect(problemLines([unknown, unknown])).toHaveLength(1);
    const many = Array.from({ length: 25 }, (_, i) => ({ ...unknown, key: `k${i}` }));
    const lines = problemLines(many, 40);
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe("  ... and 20 more problems (phrasebook status, or the dashboard's problem list)");
  });
});
