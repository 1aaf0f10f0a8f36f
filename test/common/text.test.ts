/**
 * Text rules shared by every capability (src/common/text.ts): code-point order (docs/product.md
 * §3: keys sorted as code points, not UTF-16 units), and the characters XML 1.0 forbids, refused on
 * save and import (docs/formats.md "XML and bad files").
 */
import { describe, expect, test } from "bun:test";
import { compareCodePoints, nameForbidden, withoutXmlForbidden, xmlForbiddenAt, xmlForbiddenReason } from "../../src/common/text.ts";

describe("code-point order", () => {
  test("an astral character sorts after U+E000..U+FFFF, as its code point says (UTF-16 units say otherwise)", () => {
    const keys = ["\u{1F600}", "\uFFFD", "z", "\uE000", "a"];
    expect([...keys].sort(compareCodePoints)).toEqual(["a", "z", "\uE000", "\uFFFD", "\u{1F600}"]);
    expect([...keys].sort()).not.toEqual([...keys].sort(compareCodePoints)); // what plain sort gets wrong
    expect(compareCodePoints("ab", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("a", "a")).toBe(0);
  });
});

describe("characters XML 1.0 forbids", () => {
  test("C0 controls but tab, line feed and carriage return, and U+FFFE/U+FFFF, are found and named; everything else passes", () => {
    for (const ok of ["plain", "tab\there", "line\nfeed", "cr\rlf", "\u00e9\u4e2d\u{1F600}", "\u007f", "\uFFFD"]) expect(xmlForbiddenAt(ok)).toBe(-1);
    expect(xmlForbiddenAt("ab\u0001c")).toBe(2);
    expect(nameForbidden("\u0001", 0)).toBe("U+0001 (a control character)");
    expect(nameForbidden("\uFFFE", 0)).toBe("U+FFFE (a noncharacter)");
    expect(xmlForbiddenReason("x\u000Cy")).toBe("must not contain U+000C (a control character): XML 1.0 forbids it, so no Android or XLIFF file could carry it");
    expect(xmlForbiddenReason("fine")).toBeNull();
  });

  test("a writer of XML puts U+FFFD in each forbidden character's place", () => {
    expect(withoutXmlForbidden("a\u0000b\u000Bc\uFFFFd")).toBe("a\uFFFDb\uFFFDc\uFFFDd");
  });
});
