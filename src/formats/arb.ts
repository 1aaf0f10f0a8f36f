import type { MessageArgument } from "../messages/read.ts";
import { arbPlaceholdersJson } from "./icu.ts";

/** `@@locale` with underscores: older gen-l10n versions split locales only on `_` (docs/product.md §3). */
export function arbLocale(code: string): string {
  return code.replace(/-/g, "_");
}

/**
 * One message and, when there is any, its `@name` metadata: the key's context as `description` and
 * the message's arguments as `placeholders` (docs/interface.md §2.6 rule 4, docs/publishing.md §3).
 * Written by hand (it is on the publish hot path) from the already-quoted name and value.
 */
export function arbLines(lines: string[], nameJson: string, valueJson: string, description: string | null | undefined, args: readonly MessageArgument[]): void {
  lines.push(`  ${nameJson}: ${valueJson}`);
  if (!description && args.length === 0) return;
  const parts: string[] = [];
  if (description) parts.push(`"description":${JSON.stringify(description)}`);
  if (args.length > 0) parts.push(`"placeholders":${arbPlaceholdersJson(args)}`);
  lines.push(`  "@${nameJson.slice(1)}: {${parts.join(",")}}`);
}

/** `@@locale` comes first (docs/interface.md §2.6 rule 5). */
export function arbHeader(code: string): string {
  return `  "@@locale": ${JSON.stringify(arbLocale(code))}`;
}

export function arbDocument(lines: string[]): string {
  return `{\n${lines.join(",\n")}\n}\n`;
}
