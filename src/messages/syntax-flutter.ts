import type { WorkCounter } from "../common/work.ts";
import type { ReadMessage } from "./read-types.ts";
import type { Syntax } from "./syntax.ts";
import { icuSyntax, readIcu } from "./syntax-icu.ts";

/**
 * The `flutter` syntax (docs/product.md §9, docs/formats.md "What gen-l10n accepts"): ICU as
 * Flutter's gen-l10n reads it without `use-escaping`, where an apostrophe is an ordinary character
 * (`'{query}'` is the placeholder `query` between two apostrophes). Read as ICU with every
 * apostrophe doubled (ICU's spelling of a literal apostrophe), so the checks are the ICU ones; a
 * fault's position is mapped back to the value as written.
 */

/** The position in `value` of position `at` of the value with its apostrophes doubled. */
function unDoubled(value: string, at: number): number {
  let i = 0;
  for (let p = 0; p < at && i < value.length; i++) p += value.charCodeAt(i) === 39 /* ' */ ? 2 : 1;
  return i;
}

function read(value: string, work?: WorkCounter): ReadMessage {
  if (value.indexOf("'") < 0) return readIcu(value, work);
  const read = readIcu(value.replaceAll("'", "''"), work);
  if (!read.fault) return read;
  if (work) work.steps += value.length;
  return { ...read, fault: { ...read.fault, start: unDoubled(value, read.fault.start), end: unDoubled(value, read.fault.end) } };
}

export const flutterSyntax: Syntax = {
  ...icuSyntax,
  name: "flutter",
  label: "ICU as Flutter's gen-l10n reads it",
  read,
  // An apostrophe right before or after a placeholder: ICU quotes it, gen-l10n does not.
  looksLike: (value) => /'\{|\}'/.test(value),
};
