import type { WorkCounter } from "../common/work.ts";
import { NOTHING, type ReadMessage } from "./read-types.ts";
import type { Syntax } from "./syntax.ts";
import { textPlaceholders } from "./text-placeholders.ts";

/**
 * The `text` syntax (docs/product.md §7): placeholders are `{name}` and `{{name}}` tokens, any
 * other brace is text, nothing is a syntax error, and an unknown placeholder is only a warning.
 */
function read(value: string, work?: WorkCounter): ReadMessage {
  const names = textPlaceholders(value, work);
  return names.length === 0 ? NOTHING : { arguments: names.map((name) => ({ name, kind: "plain" })), plurals: [], fault: null };
}

export const textSyntax: Syntax = {
  name: "text",
  label: "plain text",
  example: "{name} or {{name}}",
  read,
  unknownSeverity: "warning",
  pluralsInMessage: false,
  show: (name) => `\`${name}\``,
  looksLike: (value) => value.indexOf("{") >= 0,
};
