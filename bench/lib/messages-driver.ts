/**
 * Reading and checking hostile messages, in-process (docs/messages.md "Cost", docs/product.md §7):
 * the times behind the tests that count steps instead (test/messages/checks.test.ts,
 * test/messages/read.test.ts, test/formats/bundle.test.ts). Each case runs BENCH_ROUNDS times
 * after one warm-up run; the table gives the median and the fastest time, the steps the code's
 * own work counter charged (the figure the tests hold), and for the pairs of a value and one half
 * its size, the ratio of their median times (2 for linear work, 4 for quadratic).
 * Usage: bun bench/lib/messages-driver.ts   (prints a Markdown table)
 */
import type { WorkCounter } from "../../src/common/work.ts";
import { compileLanguage } from "../../src/formats/bundle.ts";
import { checkMessage } from "../../src/messages/check.ts";
import { PluralCatalog } from "../../src/messages/plurals.ts";
import { readMessage } from "../../src/messages/read.ts";
import { textPlaceholders } from "../../src/messages/text-placeholders.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const catalog = new PluralCatalog();

/** `count` placeholders named `prefix` and a number, as `{a0}` or `{ a0 }`, padded with x to `length`. */
function withPlaceholders(count: number, length: number, spaced = false, prefix = ""): string {
  const text = Array.from({ length: count }, (_, i) => (spaced ? `{ ${prefix}${i.toString(36)} }` : `{${prefix}${i.toString(36)}}`)).join("");
  return text + "x".repeat(length - text.length);
}

/** Reads both values and checks the German one against the English, as a save does. */
function check(value: string, base: string | undefined, work?: WorkCounter): void {
  checkMessage(value, readMessage(value, "icu", work), {
    syntax: "icu",
    languageName: "German",
    plurals: catalog.of("de"),
    baseName: "English",
    base: base === undefined ? null : readMessage(base, "icu", work),
    work,
  });
}

function compileArb(value: string, work?: WorkCounter): void {
  compileLanguage({ keys: ["m"], contexts: new Map() }, { code: "en", values: [value] }, "icu", work);
}

interface Case {
  name: string;
  run: (work?: WorkCounter) => void;
}

function measure(c: Case): { median: number; best: number; steps: number } {
  const work = { steps: 0 };
  c.run(work);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    c.run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1]!, best: times[0]!, steps: work.steps };
}

const pairs: [string, (scale: 1 | 0.5) => Case][] = [
  ["check: 17,000 `{name}` in 100,000 characters (half: 8,500 in 50,000)", (k) => {
    const n = 17_000 * k, length = 100_000 * k;
    const value = withPlaceholders(n, length), base = withPlaceholders(n, length).replace("{0}", "{zero}");
    return { name: "", run: (w) => check(value, base, w) };
  }],
  ["check: 12,000 `{ name }` (the parser) in 100,000 characters", (k) => {
    const n = 12_000 * k, length = 100_000 * k;
    const value = withPlaceholders(n, length, true), base = withPlaceholders(n, length).replace("{0}", "{zero}");
    return { name: "", run: (w) => check(value, base, w) };
  }],
  ["check: 14,000 placeholders, none in the English text", (k) => {
    const n = 14_000 * k, length = 100_000 * k;
    const value = withPlaceholders(n, length, false, "a"), base = withPlaceholders(n, length, false, "b");
    return { name: "", run: (w) => check(value, base, w) };
  }],
  ["check: a select with 10,000 cases in 90,000 characters", (k) => {
    const value = "{g, select, " + Array.from({ length: 10_000 * k }, (_, i) => `c${i.toString(36)} {x}`).join(" ") + " other {y}}";
    return { name: "", run: (w) => check(value, undefined, w) };
  }],
  ["ARB compile: 17,000 placeholders in 100,000 characters", (k) => {
    const value = withPlaceholders(17_000 * k, 100_000 * k);
    return { name: "", run: (w) => compileArb(value, w) };
  }],
  ["text syntax: 16,000 `{aN}` tokens", (k) => {
    const value = Array.from({ length: 16_000 * k }, (_, i) => `{a${i.toString(36)}}`).join("");
    return { name: "", run: (w) => void textPlaceholders(value, w) };
  }],
];

const singles: Case[] = [
  { name: "check: 6,000 levels of nesting in 100,000 characters (refused)", run: (w) => check("{a, select, other {".repeat(5_000) + "x" + "}}".repeat(5_000), undefined, w) },
  ...["x", "'", "#"].map((c) => ({ name: `check: \`${c}\` x 100,000`, run: (w?: WorkCounter) => check(c.repeat(100_000), "Hello {name}", w) })),
  { name: "check: `'{` x 50,000", run: (w) => check("'{".repeat(50_000), "Hello {name}", w) },
  ...["{", "{{a", "{a}"].map((c) => ({ name: `text syntax: \`${c}\` to 100,000 characters`, run: (w?: WorkCounter) => void textPlaceholders(c.repeat(Math.floor(100_000 / c.length)), w) })),
];

const ms = (x: number) => x.toFixed(2);
console.log(`| case | median ms | fastest ms | steps counted | half the size: median / fastest ms, steps | ratio of medians / of fastest / of steps |`);
console.log(`|---|---:|---:|---:|---:|---:|`);
for (const [name, make] of pairs) {
  const full = measure(make(1));
  const half = measure(make(0.5));
  const ratios = [full.median / half.median, full.best / half.best, full.steps / half.steps].map((r) => r.toFixed(2)).join(" / ");
  console.log(`| ${name} | ${ms(full.median)} | ${ms(full.best)} | ${full.steps.toLocaleString("en-US")} | ${ms(half.median)} / ${ms(half.best)}, ${half.steps.toLocaleString("en-US")} | ${ratios} |`);
}
for (const c of singles) {
  const r = measure(c);
  console.log(`| ${c.name} | ${ms(r.median)} | ${ms(r.best)} | ${r.steps.toLocaleString("en-US")} | | |`);
}
