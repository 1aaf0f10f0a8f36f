import type { WorkCounter } from "../common/work.ts";
import type { MessageSyntax, ReadMessage } from "./read-types.ts";

/**
 * The shape every message syntax module has (docs/messages.md "Syntaxes"): how it reads a value,
 * how its checks differ, and what its messages look like (for the hint of docs/messages.md
 * "Hints"). One module per syntax: syntax-icu.ts, syntax-flutter.ts, syntax-i18next.ts,
 * syntax-text.ts; syntaxes.ts lists them.
 */
export interface Syntax {
  readonly name: MessageSyntax;
  /** As people name it: "ICU MessageFormat". */
  readonly label: string;
  /** A short example of its placeholders, for hints and the settings page. */
  readonly example: string;
  /** Reads a value into its arguments and plurals, or says why it does not read; linear in its length. */
  read(value: string, work?: WorkCounter): ReadMessage;
  /** Severity of an argument the base value lacks: an error where an app would fail or show it raw. */
  readonly unknownSeverity: "error" | "warning";
  /** Whether plural cases live inside a message (ICU) and are checked against the language's categories. */
  readonly pluralsInMessage: boolean;
  /** How a placeholder named `name` is written in this syntax, for findings. */
  show(name: string): string;
  /** Whether a value shows signs of this syntax (`{{name}}` for i18next): the hint only suggests a syntax its values look like. */
  looksLike(value: string): boolean;
}
