import { get, isAdmin, patch, post, projectPath } from "../api.ts";
import type { SigningKeyView } from "../../../delivery/keys.ts";
import { h } from "../dom.ts";
import { adminOnly, projectLanguages, projectPage } from "../layout.ts";
import { resolve, type Ctx } from "../router.ts";
import { actionButton, confirmDialog, field, form, input, section } from "../ui.ts";
import { PROJECT_NAME_MAX_LENGTH } from "../../../authoring/limits.ts";

/**
 * Rename, base language, message syntax (docs/product.md §7), rotate the project slug
 * (docs/interface.md §5 rule 7: revokes every URL), the signing key and its rotation
 * (docs/delivery.md "Signatures").
 */
export function settingsPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "settings", "Settings", async (project) => {
    if (!isAdmin()) return [adminOnly("change project settings")];
    const languages = await projectLanguages(pid);
    return [generalSection(pid, project, languages), slugSection(pid, project), signingSection(pid, await get<SigningKeyView>(projectPath(pid, "signing-key")))];
  });
}

type Project = Parameters<Parameters<typeof projectPage>[3]>[0];

/** Name, base language, message syntax and what releases ship. */
function generalSection(pid: string, project: Project, languages: Awaited<ReturnType<typeof projectLanguages>>): HTMLElement {
  const base = h(
    "select",
    { name: "base_language_code" },
    languages.map((l) => h("option", { value: l.code, selected: l.code === project.base_language_code }, `${l.code} · ${l.name}`)),
  );
  return section(
    "General",
    form(
      {
        submit: "Save",
        label: "Project settings",
        onSubmit: async (data) => {
          await patch(projectPath(pid), {
            name: data.name,
            base_language_code: data.base_language_code,
            message_syntax: data.message_syntax,
            publish_approved_only: data.publish_approved_only === "true",
          });
          resolve();
        },
      },
      field("Name", input({ name: "name", value: project.name, required: true, maxlength: PROJECT_NAME_MAX_LENGTH })),
      field("Base language", base, "The language your source strings are written in; apps fall back to it. Add a language first to make it the base."),
      field(
        "Message syntax",
        h(
          "select",
          { name: "message_syntax" },
          h("option", { value: "icu", selected: project.message_syntax === "icu" }, "ICU MessageFormat: {name}, plural, select"),
          h("option", { value: "flutter", selected: project.message_syntax === "flutter" }, "Flutter gen-l10n: ICU where an apostrophe is text ('{name}')"),
          h("option", { value: "i18next", selected: project.message_syntax === "i18next" }, "i18next JSON v4: {{name}}, $t(key), plural keys"),
          h("option", { value: "text", selected: project.message_syntax === "text" }, "Plain text with {name} or {{name}} placeholders"),
        ),
        "How your apps read messages. ICU messages are checked for syntax, placeholders and plural cases, and errors block publishing; plain text only has its placeholders compared with the base language's, as warnings. Changing it checks every value again.",
      ),
      field(
        "What releases ship",
        h(
          "select",
          { name: "publish_approved_only" },
          h("option", { value: "false", selected: !project.publish_approved_only }, "Every translation as it is"),
          h("option", { value: "true", selected: project.publish_approved_only }, "Approved translations only (the base language as it is)"),
        ),
        "With approved only, each language but the base ships every key's last approved value: a string edited after its approval ships the approved one until it is approved again, and one never approved is left out (apps fall back to the base language).",
      ),
    ),
  );
}

/** The project's CDN slug and its rotation (docs/interface.md §5 rule 7: revokes every URL). */
function slugSection(pid: string, project: Project): HTMLElement {
  const rotate = async () => {
    const ok = await confirmDialog({
      title: "Rotate the project slug?",
      body: [
        h("p", null, h("strong", null, "Every download URL of this project stops working at once"), ": the pinned URLs of every published release and the latest URLs all return 404."),
        h("p", null, "Use it when URLs leaked and must be revoked. Apps and sites must then get new URLs from the API (their tokens keep working) or from the Releases page."),
        h("p", null, "Current slug: ", h("code", null, project.cdn_slug)),
      ],
      confirm: "Rotate and revoke all URLs",
      danger: true,
    });
    if (!ok) return;
    await post(projectPath(pid, "rotate-slug"));
    resolve();
  };
  return section(
    "CDN slug",
    h("p", null, "Every download URL of the project contains ", h("code", null, project.cdn_slug), ". It is the secret that guards the files: anyone with a URL can fetch it, and the latest URLs follow from it."),
    h("div", { class: "danger-zone" }, h("p", { class: "small" }, "Rotating revokes every URL of every release of this project. It cannot be undone."), actionButton("Rotate project slug…", rotate, { class: "danger" })),
  );
}

/** The signing key apps verify manifests with, and its rotation (docs/delivery.md "Signatures"). */
function signingSection(pid: string, key: SigningKeyView): HTMLElement {
  const rotateKey = async () => {
    const ok = await confirmDialog({
      title: "Rotate the signing key?",
      body: [
        h("p", null, "A new key signs the latest and channel manifests from now on; its key file is signed by the current key, so apps that trust the current key follow it."),
        h("p", null, "Apps that have seen the new key refuse manifests signed by the old one. Rotate when the key may have leaked."),
      ],
      confirm: "Rotate the key",
      danger: true,
    });
    if (!ok) return;
    await post(projectPath(pid, "signing-key", "rotate"));
    resolve();
  };
  return section(
    "Signing key",
    h("p", null, "Every manifest the CDN serves is signed with this key (minisign's format). Give apps and ", h("code", null, "phrasebook verify"), " its key line:"),
    h("p", null, h("code", { class: "signing-key" }, key.public_key)),
    h("p", { class: "small break-anywhere" }, `Key ${key.n}, ID ${key.key_id}, served at `, h("code", null, key.url), "."),
    h("div", { class: "danger-zone" }, actionButton("Rotate signing key…", rotateKey, { class: "danger" })),
  );
}
