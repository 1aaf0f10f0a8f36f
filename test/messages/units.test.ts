/**
 * A value as an editor shows it (docs/messages.md "Units"): `messageUnits` splits it into text,
 * placeholders (the syntax's and native ones) and tags, and the units joined are the value
 * exactly. Linear in the length of the value.
 */
import { describe, expect, test } from "bun:test";
import { messageUnits, type MessageUnit } from "../../src/messages/units.ts";

const u = (kind: MessageUnit["kind"], text: string): MessageUnit => ({ kind, text });

describe("messageUnits", () => {
  test("Android markup and native placeholders", () => {
    expect(messageUnits('Tap <b>Save</b>: <xliff:g id="count">%1$d</xliff:g> of %@ (50% off, 100%%)', "icu")).toEqual([
      u("text", "Tap "),
      u("tag", "<b>"),
      u("text", "Save"),
      u("tag", "</b>"),
      u("text", ": "),
      u("tag", '<xliff:g id="count">'),
      u("placeholder", "%1$d"),
      u("tag", "</xliff:g>"),
      u("text", " of "),
      u("placeholder", "%@"),
      u("text", " (50% off, 100%%)"),
    ]);
  });

  test("each syntax's placeholders; ICU quoting; a plural or select stays text (its cases are forms)", () => {
    expect(messageUnits("Hi {name}, '{not}' {n, number} {n, plural, one {#} other {#}}", "icu")).toEqual([
      u("text", "Hi "),
      u("placeholder", "{name}"),
      u("text", ", '{not}' "),
      u("placeholder", "{n, number}"),
      u("text", " {n, plural, one {#} other {#}}"),
    ]);
    expect(messageUnits("Hi '{name}'", "flutter")).toEqual([u("text", "Hi '"), u("placeholder", "{name}"), u("text", "'")]);
    expect(messageUnits("Hi {{name}}, {{- html}} $t(other.key, {\"count\": 2}) {single}", "i18next")).toEqual([
      u("text", "Hi "),
      u("placeholder", "{{name}}"),
      u("text", ", "),
      u("placeholder", "{{- html}}"),
      u("text", " "),
      u("placeholder", '$t(other.key, {"count": 2})'),
      u("text", " {single}"),
    ]);
    expect(messageUnits("{a} {{b}} {c d}", "text")).toEqual([u("placeholder", "{a}"), u("text", " "), u("placeholder", "{{b}}"), u("text", " {c d}")]);
  });

  test("a tag without its partner, and a < that makes no tag, are text; a stored &lt; too", () => {
    expect(messageUnits("List<String> <b>bold <br> &lt;i>", "icu")).toEqual([u("text", "List<String> <b>bold "), u("tag", "<br>"), u("text", " &lt;i>")]);
  });

  test("joined, the units are the value; the work is linear in its length", () => {
    const hostile = "{".repeat(5_000) + "<a x='".repeat(5_000) + "$t(".repeat(5_000) + "%".repeat(5_000) + "'{".repeat(5_000);
    for (const syntax of ["icu", "flutter", "i18next", "text"] as const) {
      expect(messageUnits(hostile, syntax).map((x) => x.text).join(""), syntax).toBe(hostile);
      const count = (value: string) => {
        const work = { steps: 0 };
        messageUnits(value, syntax, work);
        return work.steps;
      };
      expect(count(hostile + hostile) / count(hostile), syntax).toBeLessThan(2.2);
    }
  });
});
