import type { MessageSyntax } from "../messages/read-types.ts";
import { withoutNames } from "./placeholders.ts";

/**
 * How alike two base strings are (docs/translators.md "Translation memory"):
 * score = floor(100 x (1 - d / max(m, n))), d the Levenshtein distance over Unicode code points
 * of the two strings (m and n code points) after trimming them, collapsing each run of white
 * space to one space and counting placeholder names as equal; case-sensitive.
 */

/** A base string as it is compared: trimmed, white space collapsed, each placeholder's name one and the same character. */
export function comparable(text: string, syntax: MessageSyntax): string {
  return withoutNames(text.trim().replace(/\s+/g, " "), syntax);
}

/** The code points of a string. */
export function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i)!;
    out[n++] = c;
    if (c > 0xffff) i++;
  }
  return out.subarray(0, n);
}

/**
 * The Levenshtein distance of `a` and `b`, or `max + 1` as soon as it must be larger than `max`.
 * Only the band of cells within `max` of the diagonal is computed (a path outside it costs more
 * than `max`), and a row whose smallest entry passes `max` ends it: the work is about
 * `min(m, n) x (2 max + 1)` cells, which `work.cells` counts when given.
 */
export function distance(a: Int32Array, b: Int32Array, max = Number.MAX_SAFE_INTEGER, work?: { cells: number }): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return max + 1;
  if (m === 0 || n === 0) return Math.max(m, n);
  const band = Math.min(max, Math.max(m, n));
  const BIG = max + 1;
  let prev = new Int32Array(n + 1);
  let cur = new Int32Array(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j <= band ? j : BIG;
  for (let i = 1; i <= m; i++) {
    const from = Math.max(1, i - band);
    const to = Math.min(n, i + band);
    cur[from - 1] = from === 1 ? (i <= band ? i : BIG) : BIG;
    let rowMin = cur[from - 1]!;
    const ai = a[i - 1];
    for (let j = from; j <= to; j++) {
      let v = prev[j - 1]! + (ai === b[j - 1] ? 0 : 1);
      const up = prev[j]! + 1;
      const left = cur[j - 1]! + 1;
      if (up < v) v = up;
      if (left < v) v = left;
      if (v > BIG) v = BIG;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (to < n) cur[to + 1] = BIG;
    if (work) work.cells += to - from + 1;
    if (rowMin > max) return max + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[n]!, BIG);
}

/** floor(100 x (1 - d / M)) in whole numbers, so no rounding of a float moves a score across 75. */
export function scoreOf(d: number, longest: number): number {
  return longest === 0 ? 100 : Math.floor((100 * (longest - d)) / longest);
}

/**
 * The score of two comparable strings' code points, or -1 when it is below `min`: the distance is
 * given up on past the most that `min` allows, floor(M x (100 - min) / 100).
 */
export function score(a: Int32Array, b: Int32Array, min = 0, work?: { cells: number }): number {
  const longest = Math.max(a.length, b.length);
  const max = Math.floor((longest * (100 - min)) / 100);
  const d = distance(a, b, max, work);
  if (d > max) return -1;
  const s = scoreOf(d, longest);
  return s >= min ? s : -1;
}
