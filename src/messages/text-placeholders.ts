/**
 * Placeholders of a project whose `message_syntax` is `text` (docs/product.md §7): i18next's
 * `{{name}}` (also `{{name, format}}` and the unescaped `{{- name}}`) and single-brace `{name}`.
 * Braces around anything but a name are text; nothing can be a syntax error.
 */
const TOKEN = /\{\{([^{}]*)\}\}|\{([^{}]*)\}/g;
/** A name as i18next and most interpolation libraries allow it (`user.name` reads a nested value). */
const NAME = /^[\p{L}\p{N}_.$-]+$/u;

/** The names, once each, in order of first use; linear in the length of the value. */
export function textPlaceholders(value: string): string[] {
  if (value.indexOf("{") < 0) return [];
  const seen = new Set<string>();
  for (const match of value.matchAll(TOKEN)) {
    const inner = match[1] ?? match[2] ?? "";
    const comma = inner.indexOf(",");
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim().replace(/^-\s*/, "");
    if (NAME.test(name)) seen.add(name);
  }
  return [...seen];
}
