import { can, get, post, projectPath } from "../api.ts";
import { h, time } from "../dom.ts";
import { bundleFormats, formatNames } from "../formats.ts";
import { projectPage, roleOnly } from "../layout.ts";
import { latestOf, latestTable, statusBadge, type Release } from "../releases-common.ts";
import { link, navigate, type Ctx } from "../router.ts";
import { empty, field, form, input, section } from "../ui.ts";
import { channelsSection } from "../release-ops.ts";
import { RELEASE_NAME_MAX_LENGTH, RELEASE_TAG_MAX_LENGTH } from "../../../releases/limits.ts";

/** Drafts and published releases, create, and the project's `latest` URLs (docs/publishing.md §1). */
export function releasesPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "releases", "Releases", async (project) => {
    const { items } = await get<{ items: Release[] }>(projectPath(pid, "releases"));
    const latest = latestOf(items);
    const latestDetail = latest ? await get<Release>(projectPath(pid, "releases", latest.id)) : undefined;
    const relLink = (r: Release) => link(`/projects/${encodeURIComponent(pid)}/releases/${encodeURIComponent(r.id)}`, r.name);

    const create = can("publisher")
      ? section(
          "New release",
          h("p", { class: "muted small" }, "A draft holds a name and a tag. Publishing it snapshots every translation at that moment."),
          form(
            {
              submit: "Create draft",
              class: "row-form",
              label: "New release",
              onSubmit: async (data) => {
                const r = await post<Release>(projectPath(pid, "releases"), { name: data.name, tag: data.tag });
                navigate(`/projects/${encodeURIComponent(pid)}/releases/${encodeURIComponent(r.id)}`);
              },
            },
            field("Name", input({ name: "name", required: true, maxlength: RELEASE_NAME_MAX_LENGTH, placeholder: "e.g. Spring update" })),
            field("Tag", input({ name: "tag", required: true, maxlength: RELEASE_TAG_MAX_LENGTH, class: "mono", placeholder: "e.g. v1.4.0" })),
          ),
        )
      : roleOnly("publisher", "create, publish or delete releases");

    const list = items.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "list" },
            h("thead", null, h("tr", null, h("th", null, "Name"), h("th", null, "Tag"), h("th", null, "Status"), h("th", { class: "hide-narrow" }, "Created"), h("th", null, "Published"))),
            h(
              "tbody",
              null,
              items.map((r) =>
                h(
                  "tr",
                  null,
                  h("td", null, relLink(r), r === latest ? [" ", h("span", { class: "badge base" }, "latest")] : null),
                  h("td", null, h("code", null, r.tag)),
                  h(
                    "td",
                    null,
                    statusBadge(r),
                    r.republished_from ? [" ", h("span", { class: "badge", title: `Republished from ${r.republished_from}` }, "republished")] : null,
                    r.scheduled_at ? [" ", h("span", { class: "badge", title: "Scheduled publish" }, "scheduled")] : null,
                    r.schedule_error ? [" ", h("span", { class: "badge forced", title: r.schedule_error }, "schedule failed")] : null,
                  ),
                  // On a phone the list keeps what a release is and when it went out; its draft date is on its own page.
                  h("td", { class: "hide-narrow" }, time(r.created_at)),
                  h("td", null, time(r.published_at, "not yet")),
                ),
              ),
            ),
          ),
        )
      : empty("No releases yet.", h("p", null, `Create a draft, then publish it: every language is compiled to ${formatNames(bundleFormats(), "and")} files on the CDN.`));

    const latestSection =
      latest && latestDetail?.languages
        ? section(
            "Latest URLs",
            h("p", { class: "muted small" }, "These always serve the most recently published release, now ", relLink(latest), " (", h("code", null, latest.tag), "). Apps can use them instead of pinned URLs; they update within a minute of a publish."),
            latestTable(project.cdn_slug, latestDetail.languages),
          )
        : null;

    return [create, section("Releases", list), latestSection, await channelsSection(pid, items)];
  });
}
