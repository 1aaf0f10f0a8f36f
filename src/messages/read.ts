import type { WorkCounter } from "../common/work.ts";
import type { MessageSyntax, ReadMessage } from "./read-types.ts";
import { valueTags } from "./markup.ts";
import { nativePlaceholders } from "./native-placeholders.ts";
import { SYNTAXES } from "./syntaxes.ts";

/**
 * Reading a message the way apps will (docs/messages.md "Syntaxes"), in the project's message
 * syntax (docs/product.md §9): the syntaxes are modules of the same shape (syntaxes.ts). Pure code
 * and the ICU parser only: the dashboard bundles this file, so a cell shows the very check the
 * server stores.
 */
export * from "./read-types.ts";
export { MAX_NESTING, parseIcu, readCommonShapes } from "./syntax-icu.ts";

/**
 * Reads a value in the project's message syntax; linear in its length (a `work` counter, when
 * given, is charged the steps: test/messages/checks.test.ts holds them to the length).
 */
export function readMessage(value: string, syntax: MessageSyntax, work?: WorkCounter): ReadMessage {
  const read = SYNTAXES[syntax].read(value, work);
  // Native placeholders (docs/formats.md "Placeholders") and tags (docs/messages.md "Tags") are
  // checked in every syntax; most values have neither a `%` nor a `<`.
  if (read.fault || (value.indexOf("%") < 0 && value.indexOf("<") < 0)) return read;
  const native = value.indexOf("%") < 0 ? [] : nativePlaceholders(value, work);
  const tags = valueTags(value, work);
  if (native.length === 0 && !tags) return read;
  return { ...read, ...(native.length > 0 ? { native } : {}), ...(tags ? { tags } : {}) };
}
