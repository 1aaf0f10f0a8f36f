import type { ArgumentKind, MessageArgument } from "../messages/read.ts";

/**
 * ARB `placeholders` from the checked parse of a message (docs/formats.md "ARB"): every argument
 * once, in order of first use, typed as Flutter's gen-l10n expects it. gen-l10n infers the same
 * types for arguments it finds undeclared (`num` for a plural, `String` for a select, `DateTime`
 * for a date or time, `Object` otherwise), and refuses a plural declared as anything but `num` or
 * `int`, or a select as anything but `String`; a plain argument stays `{}` (an Object).
 */
const ARB_TYPE: Record<ArgumentKind, string | null> = {
  plain: null,
  number: "num",
  plural: "num",
  selectordinal: "num",
  select: "String",
  date: "DateTime",
  time: "DateTime",
};

/** `{"count":{"type":"num"},"name":{}}`: the placeholders object as JSON; linear in the arguments. */
export function arbPlaceholdersJson(args: readonly MessageArgument[]): string {
  const parts = new Array<string>(args.length);
  for (let i = 0; i < args.length; i++) {
    const type = ARB_TYPE[args[i]!.kind];
    parts[i] = `${JSON.stringify(args[i]!.name)}:${type ? `{"type":"${type}"}` : "{}"}`;
  }
  return `{${parts.join(",")}}`;
}
