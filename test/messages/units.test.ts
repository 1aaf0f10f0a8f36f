/**
 * The units of a message's text (docs/dashboard.md "Placeholders, tags and native formats"): native
 * placeholders, Android's xliff:g spans and inline tags are units a translator inserts whole; a
 * literal `<` is text, stored as `&lt;` and shown as `<`.
 */
import { describe, expect, test } from "bun:test";
import { shownText, splitUnits, storedText } from "../../src/messages/units.ts";

const units = (text: string) => splitUnits(text).map((s) => (s.kind === "text" ? s.text : [s.unit.kind, s.unit.source, s.unit.name]));

describe("message units", () => {
  test("printf placeholders of Android, iOS and gettext, not `%%` or a percent before a space", () => {
    expect(units("%1$s has %d items, %@ and %lld; 50% off, 100%% sure, %.2f")).toEqual([
      ["printf", "%1$s", "%1$s"],
      " has ",
      ["printf", "%d", "%d"],
      " items, ",
      ["printf", "%@", "%@"],
      " and ",
      ["printf", "%lld", "%lld"],
      "; 50% off, 100%% sure, ",
      ["printf", "%.2f", "%.2f"],
    ]);
  });

  test("an Android xliff:g span is one unit named by its content; inline tags are units each", () => {
    expect(units('Wait <xliff:g id="time" example="5 min">%1$s</xliff:g> for <b>this</b> <a href="https://x.test/?a=1&b=2">link</a><br/>')).toEqual([
      "Wait ",
      ["xliff", '<xliff:g id="time" example="5 min">%1$s</xliff:g>', "%1$s"],
      " for ",
      ["tag", "<b>", "<b>"],
      "this",
      ["tag", "</b>", "</b>"],
      " ",
      ["tag", '<a href="https://x.test/?a=1&b=2">', "<a>"],
      "link",
      ["tag", "</a>", "</a>"],
      ["tag", "<br/>", "<br/>"],
    ]);
  });

  test("a `<` that opens no tag is text; stored as `&lt;`, shown as `<`", () => {
    expect(units("a < b and 3<4")).toEqual(["a < b and 3<4"]);
    expect(units("")).toEqual([]);
    expect(storedText("a < b <3")).toBe("a &lt; b &lt;3");
    expect(shownText("a &lt; b &amp; c")).toBe("a < b &amp; c");
    expect(shownText(storedText("x < y"))).toBe("x < y");
  });

  test("linear: a long value of near-units is split at once", () => {
    const long = "<".repeat(20_000) + "%".repeat(20_000);
    expect(units(long).join("")).toBe(long);
  });
});
