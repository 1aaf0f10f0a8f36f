import { PUBLIC_ID_PATTERN } from "../common/ids.ts";

/**
 * The route a request matched, as a pattern: what logs and metric labels carry instead of the
 * raw path. CDN slugs are capability secrets (docs/interface.md §5 rule 6), so they must never reach
 * a log line, and ids would give metrics unbounded cardinality.
 */

export function routeLabel(pathname: string, cdnPrefix: string): string {
  if (pathname.startsWith(cdnPrefix + "/p/") || (cdnPrefix === "" && pathname.startsWith("/p/"))) {
    const rest = pathname.slice(cdnPrefix.length).split("/"); // ["", "p", slug, "r", release, file]
    const release = rest[4] === "latest" ? "latest" : ":releaseSlug";
    return `${cdnPrefix}/p/:projectSlug/r/${release}/:file`;
  }
  if (pathname.startsWith("/dashboard/") && !pathname.startsWith("/dashboard/api/")) return "/dashboard/*";
  const segments = pathname.split("/").map((seg, i, all) => {
    if (PUBLIC_ID_PATTERN.test(seg)) return ":id";
    // /v1/releases/{release_id} accepts any string; a client's typo must not become a label.
    if (all[1] === "v1" && all[2] === "releases" && i === 3) return ":id";
    // language codes in dashboard paths (.../languages/pt-BR, .../translations/de)
    if (i > 0 && (all[i - 1] === "languages" || all[i - 1] === "translations")) return ":code";
    return seg;
  });
  const label = segments.join("/");
  return label.length > 120 ? "other" : label;
}
