import type { ReleaseLanguageView, ReleaseView } from "../../releases/releases.ts";
import { fileUrl, LATEST } from "../../bundles/urls.ts";
import type { BundleFormat } from "../../formats/registry.ts";
import { config } from "./config.ts";
import { h } from "./dom.ts";
import { badge, copyField } from "./ui.ts";

/**
 * Shapes of docs/product.md §4 releases (the server's views, type-only), and the URL tables both
 * release pages show.
 */
export type ReleaseLanguage = ReleaseLanguageView;
export type Release = ReleaseView;

export function statusBadge(r: Release): HTMLElement {
  return r.status === "published" ? badge("published", "approved") : badge("draft", "draft");
}

/** The most recently published release: what `latest` serves (docs/product.md §3). */
export function latestOf(releases: Release[]): Release | undefined {
  return releases
    .filter((r) => r.status === "published" && r.published_at)
    .sort((a, b) => b.published_at!.localeCompare(a.published_at!))[0];
}

/** Base language first, then by code: the order every page lists languages in. */
function baseFirst<T extends { code: string; is_base_language: boolean }>(list: T[]): T[] {
  return list.slice().sort((a, b) => Number(b.is_base_language) - Number(a.is_base_language) || a.code.localeCompare(b.code));
}

/**
 * One row per file, the whole URL visible (its tail names the language and format). A language
 * has a URL per format its release shipped (docs/formats.md "What a release records").
 */
function urlTable(rows: { code: string; base: boolean; urls: Partial<Record<BundleFormat, string>> }[], caption: string): HTMLElement {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "list urls" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", null, h("tr", null, h("th", null, "Language"), h("th", null, "Format"), h("th", null, "URL"))),
      rows.map((r) => {
        const formats = Object.keys(r.urls) as BundleFormat[];
        return h(
          "tbody",
          null,
          formats.map((f, i) =>
            h(
              "tr",
              null,
              i === 0 ? h("th", { scope: "rowgroup", rowspan: formats.length, class: "url-lang" }, h("code", null, r.code), r.base ? [" ", badge("base", "base")] : null) : null,
              h("td", { class: "url-format" }, f.toUpperCase()),
              h(
                "td",
                { class: "url-cell" },
                copyField(r.urls[f]!, `${r.code} ${f.toUpperCase()} URL`),
                h("a", { href: r.urls[f]!, target: "_blank", rel: "noopener", class: "open", "aria-label": `Open ${r.code}.${f}` }, "Open"),
              ),
            ),
          ),
        );
      }),
    ),
  );
}

/** Pinned download URLs of one published release, exactly as the API returns them. */
export function downloadTable(languages: ReleaseLanguage[]): HTMLElement {
  return urlTable(
    baseFirst(languages).map((l) => ({ code: l.code, base: l.is_base_language, urls: l.download_urls })),
    "Download URLs",
  );
}

/**
 * The `latest` URLs for the languages and formats the latest release shipped (docs/interface.md
 * §4.5 rule 2, docs/formats.md).
 */
export function latestTable(projectSlug: string, languages: ReleaseLanguage[]): HTMLElement {
  return urlTable(
    baseFirst(languages).map((l) => ({
      code: l.code,
      base: l.is_base_language,
      urls: Object.fromEntries((Object.keys(l.download_urls) as BundleFormat[]).map((f) => [f, fileUrl(config.cdn_url, projectSlug, LATEST, l.code, f)])),
    })),
    "Latest URLs",
  );
}
