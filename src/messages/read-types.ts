/**
 * What reading a message gives, whatever its syntax (docs/messages.md "Syntaxes"): its arguments,
 * its plurals and, when it does not read, why. Types and constants only, so every syntax module
 * can use them without importing another.
 */
export type MessageSyntax = "icu" | "flutter" | "i18next" | "text";

/** Every syntax a project may choose, the default first (docs/product.md §9). */
export const MESSAGE_SYNTAXES = ["icu", "flutter", "i18next", "text"] as const satisfies readonly MessageSyntax[];

/** How a message uses an argument; decides the ARB placeholder type (docs/publishing.md §3). */
export type ArgumentKind = "plain" | "number" | "date" | "time" | "plural" | "selectordinal" | "select";

export interface MessageArgument {
  name: string;
  kind: ArgumentKind;
}

/** One plural or selectordinal of the message, with the cases it spells out. */
export interface PluralUse {
  argument: string;
  ordinal: boolean;
  offset: number;
  /** Category names (`one`, `few`, ...) in the order written; exact `=N` cases are in `exact`. */
  categories: string[];
  exact: number[];
}

/** Why an ICU message does not parse: the parser's error kind and where (UTF-16 offsets). */
export interface SyntaxFault {
  kind: string;
  start: number;
  end: number;
}

export interface ReadMessage {
  /** Every argument, once, in order of first use. */
  arguments: MessageArgument[];
  plurals: PluralUse[];
  /** Set when the value is not a valid ICU message; then `arguments` and `plurals` are empty. */
  fault: SyntaxFault | null;
  /** Native placeholders (`%@`, `%1$s`, `%lld`) in the text, checked like arguments (native-placeholders.ts); absent when none. */
  native?: string[];
  /** Inline tags (`<b>…</b>`, `<xliff:g …>`), checked like placeholders (markup.ts `valueTags`); absent when none. */
  tags?: { tags: string[]; unpaired: string[] };
}

/** A message with no argument (shared: most messages are this). */
export const NOTHING: ReadMessage = Object.freeze({ arguments: [], plurals: [], fault: null }) as ReadMessage;
