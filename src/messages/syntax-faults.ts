import type { SyntaxFault } from "./read-types.ts";
import { MAX_NESTING } from "./syntax-icu.ts";

/**
 * The parser's error kinds (FormatJS's `ErrorKind` names), and those of the i18next reading
 * (syntax-i18next.ts), as sentences a translator can act on (docs/messages.md "Problems"). `{at}` is the 1-based character position; `{token}` the text the
 * parser stopped at.
 */
const SENTENCES: Record<string, string> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: "The `{` at character {at} is never closed: a `}` is missing",
  EMPTY_ARGUMENT: "`{}` at character {at} has no argument name inside (to show braces as text, write '{' and '}')",
  MALFORMED_ARGUMENT: "`{token}` at character {at} is not a valid argument: a name is letters, digits or _ (as in {count}), then `}` or a comma",
  EXPECT_ARGUMENT_TYPE: "The argument at character {at} has a comma but no type after it: plural, select, selectordinal, number, date or time",
  INVALID_ARGUMENT_TYPE: "`{token}` at character {at} is not an argument type: use plural, select, selectordinal, number, date or time",
  EXPECT_ARGUMENT_STYLE: "The argument at character {at} has a second comma but no format after it",
  INVALID_NUMBER_SKELETON: "The number format at character {at} is not valid",
  EXPECT_NUMBER_SKELETON: "The number format at character {at} is empty after `::`",
  INVALID_DATE_TIME_SKELETON: "The date or time format at character {at} is not valid",
  EXPECT_DATE_TIME_SKELETON: "The date or time format at character {at} is empty after `::`",
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: "The apostrophe at character {at} in a format is never closed",
  EXPECT_SELECT_ARGUMENT_OPTIONS: "The plural or select at character {at} needs a comma and its cases, as in {count, plural, one {…} other {…}}",
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: "The offset at character {at} must be a whole number, as in offset:1",
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: "The offset at character {at} must be a whole number, as in offset:1",
  EXPECT_SELECT_ARGUMENT_SELECTOR: "The select at character {at} has no cases",
  EXPECT_PLURAL_ARGUMENT_SELECTOR: "The plural at character {at} has no case there: write a category (one, other, ...) or =N with a whole number",
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT: "The case at character {at} needs its text in braces, as in other {…}",
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT: "The case at character {at} needs its text in braces, as in other {…}",
  INVALID_PLURAL_ARGUMENT_SELECTOR: "`=` at character {at} must be followed by a whole number, as in =0 {…}",
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: "The case `{token}` at character {at} appears twice in the same plural",
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: "The case `{token}` at character {at} appears twice in the same select",
  MISSING_OTHER_CLAUSE: "A plural or select ends at character {at} without an `other` case, which every plural and select needs",
  I18NEXT_UNCLOSED: "The `{{` at character {at} is never closed: a `}}` is missing",
  I18NEXT_EMPTY: "`{token}` at character {at} has no name inside, as in {{name}}",
  I18NEXT_NESTING_UNCLOSED: "The `$t(` at character {at} is never closed: a `)` is missing",
  I18NEXT_NESTING_EMPTY: "`{token}` at character {at} names no key, as in $t(common.appName)",
  TOO_DEEP: `Braces are nested more than ${MAX_NESTING} levels deep (at character {at})`,
};

const FALLBACK = "The text is not a valid ICU message (at character {at})";
const TOKEN_MAX = 30;

/** 1-based position in characters (code points), as a person counts them. */
function characterAt(value: string, offset: number): number {
  let n = 1;
  for (const _ of value.slice(0, offset)) n++;
  return n;
}

export function describeFault(value: string, fault: SyntaxFault): string {
  const raw = value.slice(fault.start, fault.end).trim();
  const token = raw.length > TOKEN_MAX ? `${raw.slice(0, TOKEN_MAX)}…` : raw;
  return (SENTENCES[fault.kind] ?? FALLBACK).replace("{at}", String(characterAt(value, fault.start))).replace("{token}", () => token);
}
