import type { ChannelView } from "../../releases/channels.ts";
import type { ReleaseDiff } from "../../releases/diff.ts";
import { CHANNEL_NAME_MAX_LENGTH, RELEASE_NAME_MAX_LENGTH, RELEASE_TAG_MAX_LENGTH } from "../../releases/limits.ts";
import { can, del, get, post, projectPath, put } from "./api.ts";
import { dateTime, h, plural, time, uid, type Child } from "./dom.ts";
import type { Release } from "./releases-common.ts";
import { link, navigate, resolve } from "./router.ts";
import { actionButton, confirmDialog, copyField, field, form, input } from "./ui.ts";

/**
 * The release pages' operations (docs/releases.md, docs/dashboard.md "Releases"): what a release
 * changes against what is live, rolling back by republishing, scheduling a draft, and channels.
 */

/** A card section named by its heading, so assistive technology (and tests) can find it as a region. */
export function region(title: string, ...body: Child[]): HTMLElement {
  const id = uid("sec");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), body);
}

export type Diff = ReleaseDiff;
export type Channel = ChannelView;

const releaseHref = (pid: string, rid: string) => `/projects/${encodeURIComponent(pid)}/releases/${encodeURIComponent(rid)}`;

export function loadDiff(pid: string, rid: string, against = "latest"): Promise<Diff> {
  return get<Diff>(`${projectPath(pid, "releases", rid, "diff")}?against=${encodeURIComponent(against)}`);
}

const shown = (v: string | null) => (v === null ? h("span", { class: "muted" }, "(none)") : h("code", null, v));

/** The counts in one sentence, and the lists (each capped by the server at 1,000 entries). */
export function diffView(diff: Diff, againstLabel: string): HTMLElement {
  const { counts } = diff;
  const nothing = counts.added + counts.removed + counts.changed + diff.languages_added.length + diff.languages_removed.length === 0;
  return h(
    "div",
    { class: "diff" },
    h(
      "p",
      { class: "diff-summary" },
      nothing
        ? `No change against ${againstLabel}.`
        : `Against ${againstLabel}: ${plural(counts.added, "key")} added, ${plural(counts.removed, "key")} removed, ${plural(counts.changed, "value")} changed.`,
    ),
    diff.languages_added.length ? h("p", null, "Languages added: ", diff.languages_added.map((c) => [h("code", null, c), " "])) : null,
    diff.languages_removed.length ? h("p", null, "Languages removed: ", diff.languages_removed.map((c) => [h("code", null, c), " "])) : null,
    diff.added.length || diff.removed.length || diff.changed.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "list diff-table" },
            h("thead", null, h("tr", null, h("th", null, "Key"), h("th", null, "Language"), h("th", null, "Before"), h("th", null, "After"))),
            h(
              "tbody",
              null,
              diff.added.map((k) => h("tr", { class: "diff-added" }, h("td", null, h("code", null, k)), h("td", null, "all"), h("td", null, shown(null)), h("td", null, "added"))),
              diff.removed.map((k) => h("tr", { class: "diff-removed" }, h("td", null, h("code", null, k)), h("td", null, "all"), h("td", null, "removed"), h("td", null, shown(null)))),
              diff.changed.map((c) => h("tr", null, h("td", null, h("code", null, c.key)), h("td", null, h("code", null, c.language_code)), h("td", null, shown(c.before)), h("td", null, shown(c.after)))),
            ),
          ),
        )
      : null,
    diff.truncated ? h("p", { class: "muted small" }, "Each list shows its first 1,000 entries; the counts are whole.") : null,
    // A translator or reviewer is shown only their languages' values; the counts are whole (docs/dashboard-api.md "Project roles").
    !diff.truncated && diff.changed.length < counts.changed ? h("p", { class: "muted small" }, `${plural(counts.changed - diff.changed.length, "value")} changed in languages your role does not cover.`) : null,
  );
}

/** Roll back: republish this release as a new one (docs/releases.md "Roll back"). */
export function republishButton(pid: string, release: Release): HTMLElement {
  return actionButton("Roll back to this…", async () => {
    const name = input({ name: "name", value: `Roll back to ${release.tag}`, required: true, maxlength: RELEASE_NAME_MAX_LENGTH });
    const tag = input({ name: "tag", value: `${release.tag}-rollback`, required: true, maxlength: RELEASE_TAG_MAX_LENGTH, class: "mono" });
    const ok = await confirmDialog({
      title: `Republish ${release.name} (${release.tag})?`,
      body: [
        h("p", null, "A new release is published now with exactly this release's files, so the latest URLs serve them at once and webhook subscribers get release_published. No URL stops working."),
        field("Name", name),
        field("Tag", tag),
      ],
      confirm: "Republish now",
    });
    if (!ok) return;
    const made = await post<Release>(projectPath(pid, "releases", release.id, "republish"), { name: name.value, tag: tag.value });
    navigate(releaseHref(pid, made.id));
  });
}

/** `republished from <release>` under a republished release's name. */
export function republishedFrom(pid: string, release: Release, all: Release[]): HTMLElement | null {
  if (!release.republished_from) return null;
  const source = all.find((r) => r.id === release.republished_from);
  return h("p", { class: "muted small republished" }, "Republished from ", source ? [link(releaseHref(pid, source.id), source.name), " (", h("code", null, source.tag), ")"] : h("code", null, release.republished_from), ".");
}

/** A `datetime-local` value as an ISO time in UTC (the browser's zone is the user's). */
function isoFromLocal(value: string): string {
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? value : t.toISOString();
}

/** An ISO time as a `datetime-local` value in the reader's zone (`YYYY-MM-DDTHH:MM`), so a reschedule starts from the time set. */
function localFromIso(iso: string): string {
  const t = new Date(iso);
  return new Date(t.getTime() - t.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** Scheduling a draft: set, cancel, and why the last one did not publish (docs/releases.md "Scheduled publish"). */
export function scheduleSection(pid: string, release: Release): HTMLElement | null {
  if (release.status !== "draft") return null;
  const path = projectPath(pid, "releases", release.id, "schedule");
  const state = release.schedule_error
    ? h("p", { class: "error schedule-error", role: "status" }, "The scheduled publish did not happen: ", release.schedule_error)
    : release.scheduled_at
      ? h("p", { class: "schedule-at" }, "Publishes at ", h("strong", null, dateTime(release.scheduled_at)), " (", time(release.scheduled_at), "), checked like any publish: an error in a message stops it.")
      : h("p", { class: "muted small" }, "Not scheduled.");
  // Scheduling is publishing: a publisher's (docs/dashboard-api.md "Project roles").
  if (!can("publisher")) return region("Schedule", state);
  return region(
    "Schedule",
    state,
    form(
      {
        submit: release.scheduled_at ? "Reschedule" : "Schedule",
        class: "row-form",
        label: "Schedule the publish",
        onSubmit: async (data) => {
          await put(path, { at: isoFromLocal(data.at!) });
          resolve();
        },
      },
      field("Publish at", input({ name: "at", type: "datetime-local", required: true, ...(release.scheduled_at ? { value: localFromIso(release.scheduled_at) } : {}) })),
    ),
    release.scheduled_at
      ? actionButton("Cancel schedule", async () => {
          await del(path);
          resolve();
        })
      : null,
  );
}

/** The channels of a project: where each points, its URLs, and moving, rotating, deleting them (docs/releases.md "Channels"). */
export async function channelsSection(pid: string, releases: Release[]): Promise<HTMLElement> {
  const { items } = await get<{ items: Channel[] }>(projectPath(pid, "channels"));
  const published = releases.filter((r) => r.status === "published");
  const byId = new Map(releases.map((r) => [r.id, r]));
  const chooser = (selected?: string) =>
    h(
      "select",
      { name: "release_id", "aria-label": "Release" },
      published.map((r) => h("option", { value: r.id, selected: r.id === selected }, `${r.name} (${r.tag})`)),
    );
  const moveForm = (name: string | null, selected?: string) =>
    form(
      {
        submit: name ? "Move" : "Create channel",
        class: "row-form",
        label: name ? `Move channel ${name}` : "New channel",
        onSubmit: async (data) => {
          await put(projectPath(pid, "channels", name ?? data.name!), { release_id: data.release_id });
          resolve();
        },
      },
      name ? null : field("Channel", input({ name: "name", required: true, maxlength: CHANNEL_NAME_MAX_LENGTH, pattern: "[a-z0-9\\-]+", placeholder: "e.g. staging", class: "mono" })),
      field("Release", chooser(selected)),
    );
  const rows = items.map((c) => {
    const release = byId.get(c.release_id);
    const first = Object.entries(c.urls)[0];
    const sample = first ? (Object.values(first[1])[0] ?? "") : "";
    return h(
      "div",
      { class: "card channel", "data-channel": c.name },
      h("h3", null, h("code", null, c.name), " → ", release ? link(releaseHref(pid, release.id), `${release.name} (${release.tag})`) : c.release_id),
      h("p", { class: "muted small" }, "Moved ", time(c.updated_at), ". Cached like the latest URLs (60 s) and purged on every move. Slug ", h("code", null, c.slug), "."),
      sample ? copyField(sample, `${c.name} URL`) : h("p", { class: "muted small" }, "The release shipped no language."),
      // Moving and deleting channels are a publisher's; a new slug, like every slug, an admin's (docs/dashboard-api.md "Project roles").
      can("publisher")
        ? [
            moveForm(c.name, c.release_id),
            h(
              "div",
              { class: "actions" },
              can("admin")
                ? actionButton("Rotate slug…", async () => {
                    const ok = await confirmDialog({ title: `Rotate the slug of ${c.name}?`, body: "Every URL of this channel stops working at once (404); it gets new ones.", confirm: "Rotate slug", danger: true });
                    if (!ok) return;
                    await post(projectPath(pid, "channels", c.name, "rotate-slug"));
                    resolve();
                  })
                : null,
              actionButton(
                "Delete…",
                async () => {
                  const ok = await confirmDialog({ title: `Delete channel ${c.name}?`, body: "Its URLs return 404 at once. The release stays.", confirm: "Delete channel", danger: true });
                  if (!ok) return;
                  await del(projectPath(pid, "channels", c.name));
                  resolve();
                },
                { class: "danger" },
              ),
            ),
          ]
        : null,
    );
  });
  return region(
    "Channels",
    h("p", { class: "muted small" }, "A channel (staging, beta, production) serves the release it points at under URLs of its own, so a staging app can see strings before production does."),
    rows.length ? rows : h("p", null, "No channels yet."),
    can("publisher") && published.length ? moveForm(null) : null,
  );
}
