/**
 * The shape pull reads from a download as it streams (docs/automation.md "What the client trusts"):
 * UTF-8 or not, whatever the chunks' ends cut, and the first and last bytes that are not white space.
 */
import { describe, expect, test } from "bun:test";
import { isUtf8 } from "node:buffer";
import { TextShapeReader } from "../../src/cli/client/api.ts";

function shapeOf(bytes: Uint8Array, cuts: number[]) {
  const reader = new TextShapeReader(isUtf8);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.read(bytes.subarray(at, cut));
    at = cut;
  }
  return reader.end();
}

describe("a download's shape", () => {
  const text = new TextEncoder().encode(' \n{"a": "aő€😀b"}\n');

  test("UTF-8 cut at every place, once and twice, is UTF-8; its first and last bytes are the braces", () => {
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) expect(shapeOf(text, [i, j])).toEqual({ utf8: true, first: 0x7b, last: 0x7d });
    }
  });

  test("a bad byte, an overlong form, a lone surrogate's encoding and a sequence cut by the end are not UTF-8, wherever the chunks end", () => {
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const bytes = Uint8Array.from([...new TextEncoder().encode('{"a": "ő'), ...bad, ...(bad.length === 2 && bad[0] === 0xe2 ? [] : [0x22, 0x7d])]);
      for (let i = 0; i <= bytes.length; i++) expect(shapeOf(bytes, [i]).utf8).toBe(false);
    }
  });

  test("nothing but white space has no first or last byte", () => {
    expect(shapeOf(new TextEncoder().encode(" \n\t "), [2])).toEqual({ utf8: true, first: -1, last: -1 });
  });
});
