import type { MessageSyntax } from "./read-types.ts";
import type { Syntax } from "./syntax.ts";
import { flutterSyntax } from "./syntax-flutter.ts";
import { i18nextSyntax } from "./syntax-i18next.ts";
import { icuSyntax } from "./syntax-icu.ts";
import { textSyntax } from "./syntax-text.ts";

/** The message syntaxes a project may choose (docs/product.md §9), by name. */
export const SYNTAXES: Readonly<Record<MessageSyntax, Syntax>> = {
  icu: icuSyntax,
  flutter: flutterSyntax,
  i18next: i18nextSyntax,
  text: textSyntax,
};

export type { Syntax };
