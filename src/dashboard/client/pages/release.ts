import { ApiError, can, del, get, isAdmin, patch, post, projectPath } from "../api.ts";
import { fill, h, plural, time, type Child } from "../dom.ts";
import { bundleFormats, formatNames, importFormats } from "../formats.ts";
import { projectPage, type Project } from "../layout.ts";
import { loadProgress, type Progress } from "../progress.ts";
import { problemTable, type ProblemItem } from "../problems.ts";
import { downloadTable, latestOf, latestTable, statusBadge, type Release } from "../releases-common.ts";
import { navigate, resolve, type Ctx } from "../router.ts";
import { actionButton, badge, confirmDialog, field, form, input, section } from "../ui.ts";
import { diffView, loadDiff, region, republishButton, republishedFrom, scheduleSection } from "../release-ops.ts";
import { RELEASE_NAME_MAX_LENGTH, RELEASE_TAG_MAX_LENGTH } from "../../../releases/limits.ts";

/**
 * Rename, publish (saying what ships; when messages have errors, listing them with links to their
 * keys, and for admins publishing anyway), delete, rotate the slug, every URL (docs/publishing.md §2).
 */

/** The answer of a publish refused for message errors (docs/product.md §7). */
interface Refusal {
  error: string;
  error_count: number;
  problems: ProblemItem[];
}

function whatShips(progress: Progress, project: Project): HTMLElement {
  const rows = progress.languages
    .slice()
    .sort((a, b) => Number(b.is_base_language) - Number(a.is_base_language) || a.code.localeCompare(b.code))
    .map((l) => {
      // Per language: an i18next plural form a language does not use is not missing in it.
      const total = l.total_keys;
      const missing = total - l.translated;
      return h(
        "li",
        null,
        h("code", null, l.code),
        l.is_base_language ? " (base)" : "",
        `: ${plural(l.translated, "string")}`,
        missing > 0 ? h("span", { class: "missing-text" }, ` (${missing} untranslated, left out: apps fall back to ${project.base_language_code})`) : null,
        l.errors > 0 ? [", ", h("span", { class: "count-error" }, plural(l.errors, "error"))] : null,
      );
    });
  const errors = progress.languages.reduce((n, l) => n + l.errors, 0);
  return h(
    "div",
    null,
    h("p", null, `Publishing snapshots ${plural(progress.total_keys, "key")} in ${plural(progress.languages.length, "language")} and writes ${plural(progress.languages.length * bundleFormats().length, "file")} (${formatNames(bundleFormats(), "and")} per language):`),
    h("ul", { class: "ships" }, rows),
    errors > 0 ? h("p", { class: "error" }, `Messages have ${plural(errors, "error")}: publishing is refused until they are fixed.`) : null,
    h("p", null, "The release then cannot change, and the project's latest URLs switch to it. Webhook subscribers get release_published."),
  );
}

/** What the release page's parts share. */
interface ReleaseScene {
  pid: string;
  rid: string;
  path: string;
  project: Project;
  release: Release;
  all: Release[];
  isLatest: boolean;
  published: boolean;
  againstLabel: string;
}

/** The refusal of a publish for message errors, each linking to its key; admins may publish anyway. */
function refusalSection(scene: ReleaseScene, refusal: Refusal, publishAnyway: () => Promise<void>): HTMLElement {
  const more = refusal.error_count - refusal.problems.length;
  return h(
    "section",
    { class: "card refusal", "aria-labelledby": "refusal-title" },
    h("h2", { id: "refusal-title" }, "Errors block publishing"),
    h("p", null, `${plural(refusal.error_count, "error")} in messages. Fix them in the key grid (each links there), or publish anyway.`),
    problemTable(scene.pid, refusal.problems),
    more > 0 ? h("p", { class: "muted small" }, `…and ${plural(more, "more error")}.`) : null,
    isAdmin() ? h("div", { class: "actions" }, actionButton("Publish anyway…", publishAnyway, { class: "danger" })) : null,
  );
}

/** Publish (with the confirmation of what ships), publish anyway, and the refusal between them. */
function publishing(scene: ReleaseScene): { publish: () => Promise<void>; refusalBox: HTMLElement } {
  const { pid, rid, release, project } = scene;
  const refusalBox = h("div", { "aria-live": "polite" });
  const publishNow = async (allowErrors: boolean) => {
    try {
      await post(projectPath(pid, "releases", rid, "publish"), allowErrors ? { allow_errors: true } : {});
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409 && Array.isArray(err.data?.problems))) throw err;
      fill(refusalBox, refusalSection(scene, err.data as Refusal, publishAnyway));
      refusalBox.scrollIntoView({ block: "nearest" });
      return;
    }
    resolve();
  };
  const publishAnyway = async () => {
    const ok = await confirmDialog({
      title: "Publish with errors?",
      body: [
        h("p", null, "Apps get these messages exactly as they are: a broken message may show raw, or fail in the app (Flutter's gen-l10n refuses to build with it)."),
        h("p", null, "The release is marked as published with errors."),
      ],
      confirm: "Publish anyway",
      danger: true,
    });
    if (ok) await publishNow(true);
  };
  const publish = async () => {
    const progress = await loadProgress(pid);
    const changes = await loadDiff(pid, rid);
    const ok = await confirmDialog({ title: `Publish ${release.name} (${release.tag})?`, body: [diffView(changes, scene.againstLabel), whatShips(progress, project)], confirm: "Publish now" });
    if (ok) await publishNow(false);
  };
  return { publish, refusalBox };
}

function removeRelease(scene: ReleaseScene): () => Promise<void> {
  return async () => {
    const ok = await confirmDialog({
      title: `Delete ${scene.release.name}?`,
      body: scene.published
        ? [
            h("p", null, "Its files are removed and every pinned URL of this release returns 404 at once."),
            scene.isLatest ? h("p", null, "It is the latest release: the latest URLs move to the previous published release, or 404 if there is none.") : null,
          ]
        : "The draft is removed.",
      confirm: "Delete release",
      danger: true,
    });
    if (!ok) return;
    await del(scene.path);
    navigate(`/projects/${encodeURIComponent(scene.pid)}/releases`);
  };
}

function rotateSlug(scene: ReleaseScene): () => Promise<void> {
  return async () => {
    const ok = await confirmDialog({
      title: "Rotate this release's slug?",
      body: [
        h("p", null, "Every pinned download URL of this release stops working at once (404); the files get new URLs."),
        h("p", null, "Use it when a URL leaked. Apps that use the old pinned URLs must be updated; the latest URLs keep working."),
      ],
      confirm: "Rotate slug",
      danger: true,
    });
    if (!ok) return;
    await post(projectPath(scene.pid, "releases", scene.rid, "rotate-slug"));
    resolve();
  };
}

function releaseHead(scene: ReleaseScene): HTMLElement {
  const { release, published, isLatest } = scene;
  return h(
    "div",
    { class: "page-head" },
    h(
      "h2",
      null,
      release.name,
      " ",
      h("code", { class: "tag" }, release.tag),
      " ",
      statusBadge(release),
      release.forced ? [" ", badge("published with errors", "forced", { title: "An admin published it while messages had errors" })] : null,
      isLatest ? [" ", h("span", { class: "badge base" }, "latest")] : null,
    ),
    h("p", { class: "muted small" }, "Created ", time(release.created_at), published ? [" · published ", time(release.published_at)] : null),
    republishedFrom(scene.pid, release, scene.all),
  );
}

function renameSection(scene: ReleaseScene): HTMLElement | null {
  if (!can("publisher")) return null;
  const { release } = scene;
  return section(
    "Name and tag",
    form(
      {
        submit: "Save",
        class: "row-form",
        label: "Rename release",
        onSubmit: async (data) => {
          await patch(scene.path, { name: data.name, tag: data.tag });
          resolve();
        },
      },
      field("Name", input({ name: "name", value: release.name, required: true, maxlength: RELEASE_NAME_MAX_LENGTH })),
      field("Tag", input({ name: "tag", value: release.tag, required: true, maxlength: RELEASE_TAG_MAX_LENGTH, class: "mono" })),
    ),
  );
}

function filesSection(scene: ReleaseScene): Child {
  const { release, project, pid } = scene;
  if (!scene.published) return section("Draft", h("p", null, `A draft has no files yet. Publish it to compile every language to ${formatNames(bundleFormats(), "and")} and put them on the CDN.`));
  return [
    section(
      "Download URLs",
      h("p", { class: "muted small" }, "Pinned to this release: they never change content and are cached for a year. Slug ", h("code", null, release.slug ?? ""), "."),
      release.languages?.length ? downloadTable(release.languages) : h("p", null, "This release shipped no language."),
    ),
    release.languages?.length ? exportSection(pid, release) : null,
    scene.isLatest && release.languages?.length
      ? section("Latest URLs", h("p", { class: "muted small" }, "This is the latest release, so these serve it too until the next publish."), latestTable(project.cdn_slug, release.languages))
      : null,
  ];
}

export function releasePage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  const rid = ctx.params.rid!;
  return projectPage(pid, "releases", "Release", async (project) => {
    const path = projectPath(pid, "releases", rid);
    const [release, all] = await Promise.all([get<Release>(path), get<{ items: Release[] }>(projectPath(pid, "releases"))]);
    const latest = latestOf(all.items);
    const isLatest = latest?.id === release.id;
    const published = release.status === "published";
    const scene: ReleaseScene = { pid, rid, path, project, release, all: all.items, isLatest, published, againstLabel: latest ? `latest (${latest.tag})` : "nothing published yet" };
    // docs/releases.md "Diff": a draft against what is live (what publishing now changes); a
    // published release against latest, unless it is latest.
    const diff = isLatest ? undefined : await loadDiff(pid, rid);
    const { publish, refusalBox } = publishing(scene);
    const actions = can("publisher")
      ? h(
          "div",
          { class: "actions" },
          published ? null : actionButton("Publish…", publish, { class: "primary" }),
          published && !isLatest ? republishButton(pid, release) : null,
          published && isAdmin() ? actionButton("Rotate slug…", rotateSlug(scene)) : null,
          actionButton("Delete…", removeRelease(scene), { class: "danger" }),
        )
      : null;
    // The diff comes before the publish button's consequences: what this would change (docs/releases.md).
    const changes = diff ? region(published ? "Changes against latest" : "What publishing changes", diffView(diff, scene.againstLabel)) : null;
    return [h("div", { class: "card release-head" }, releaseHead(scene), changes, actions), refusalBox, scheduleSection(pid, release), filesSection(scene), renameSection(scene)];
  });
}

/**
 * The release's strings in any format of the registry, as a file to save (docs/formats.md
 * "Export"): XLIFF, PO, Android and Apple files for a native app or another tool. A session
 * cookie goes with a link, so the browser downloads it like any attachment.
 */
function exportSection(pid: string, release: Release) {
  const language = h("select", { "aria-label": "Export language" }, [
    ...release.languages!.map((l) => h("option", { value: l.code }, l.code)),
    h("option", { value: "" }, "every language (XLIFF 1.2, String Catalog)"),
  ]);
  const format = h("select", { "aria-label": "Export format" }, importFormats().map((f) => h("option", { value: f.name }, f.label)));
  const download = h("a", { class: "button", download: "" }, "Download");
  const update = () => {
    const params = new URLSearchParams({ format: format.value });
    if (language.value) params.set("language", language.value);
    download.setAttribute("href", `/dashboard/api${projectPath(pid, "releases", release.id, "export")}?${params}`);
  };
  language.addEventListener("change", update);
  format.addEventListener("change", update);
  update();
  return section("Export", h("p", { class: "muted small" }, "This release's strings as a file of any format, for a native app or another tool."), h("div", { class: "row-fields" }, language, format, download));
}
