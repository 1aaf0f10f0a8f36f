import type { KeyView } from "../../authoring/keys.ts";
import { h } from "./dom.ts";

/**
 * The placeholders a gen-l10n template declares for a key (its stored ARB metadata, docs/formats.md
 * "ARB metadata"), shown to translators beside the context: each name with its type and format,
 * and the example the developer gave, so `{date}` reads as "DateTime, yMMMd, e.g. 2026-11-20".
 */
export function placeholderNotes(item: Pick<KeyView, "arb_metadata">): HTMLElement | null {
  const placeholders = item.arb_metadata?.placeholders;
  if (!placeholders || typeof placeholders !== "object") return null;
  const rows = Object.entries(placeholders as Record<string, Record<string, unknown>>).map(([name, attrs]) => {
    const about = [attrs?.type, attrs?.format].filter((x): x is string => typeof x === "string").join(", ");
    const example = typeof attrs?.example === "string" ? attrs.example : null;
    return h("li", null, h("code", null, `{${name}}`), about ? ` ${about}` : "", example ? h("span", { class: "muted" }, ` e.g. ${example}`) : "");
  });
  if (rows.length === 0) return null;
  return h("div", { class: "placeholder-notes" }, h("h3", null, "Placeholders"), h("ul", { class: "small" }, ...rows));
}

/**
 * The mark of a key a base file says not to translate (Android `translatable="false"`, XLIFF
 * `translate="no"`, a catalog's `shouldTranslate: false`; docs/formats.md "Not translatable"): it
 * needs no value in the other languages.
 */
export function notTranslatableMark(item: Pick<KeyView, "translatable">): HTMLElement | null {
  if (item.translatable !== false) return null;
  return h("span", { class: "badge not-translatable", title: "The base file marks this string not to be translated: other languages need no value" }, "not translatable");
}
