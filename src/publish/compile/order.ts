/**
 * CONTRACTS 3: bundles are sorted by key in code-point order. JavaScript compares UTF-16 code
 * units, which puts U+E000..U+FFFF after astral characters; shifting the unit ranges at the first
 * difference gives code-point order without decoding whole strings.
 */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000; // surrogate: part of an astral code point
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A flat bundle: (key, value) pairs already in code-point order of the key. */
export type Entries = ReadonlyArray<readonly [string, string]>;
