import { can, get, isAdmin, isGlobalAdmin, post, projectPath, session } from "./api.ts";
import { config } from "./config.ts";
import { h, type Child } from "./dom.ts";
import { href, link, navigate } from "./router.ts";
import type { LanguageView } from "../../authoring/languages.ts";
import type { ProjectView } from "../../authoring/projects.ts";

/** The server's own shapes, imported as types only (nothing of the server is in the bundle); a project carries the caller's role in it. */
export type Project = ProjectView & { role?: string; role_languages?: string[] | null };
export type Language = LanguageView;

export function setTitle(...parts: string[]): void {
  document.title = [...parts, "Phrasebook"].join(" · ");
}

function logoutButton(): HTMLElement {
  return h(
    "button",
    {
      type: "button",
      class: "link",
      onclick: async () => {
        let endSession: string | null = null;
        try {
          endSession = (await post<{ end_session_url: string | null }>("/logout")).end_session_url;
        } finally {
          session.user = null;
          session.csrf = "";
          // A session from single sign-on ends at the provider too, which returns to the login page.
          if (endSession) location.assign(endSession);
          else navigate("/login");
        }
      },
    },
    "Log out",
  );
}

export function topbar(active: "projects" | "users" | "audit" | null): HTMLElement {
  const user = session.user;
  const item = (to: string, label: string, name: string) =>
    h("a", { href: href(to), "aria-current": active === name ? "page" : null }, label);
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: href("/") }, h("img", { src: config.logo, alt: "", width: 24, height: 24 }), h("span", null, "Phrasebook")),
    user ? h("nav", { class: "mainnav", "aria-label": "Main" }, item("/", "Projects", "projects"), item("/users", "Users", "users"), isGlobalAdmin() ? item("/audit", "Audit log", "audit") : null) : null,
    user
      ? h("div", { class: "me" }, h("span", { class: "who", title: user.email }, user.name, h("small", null, user.role)), logoutButton())
      : null,
  );
}

export const PROJECT_TABS = [
  ["keys", "Keys"],
  ["languages", "Languages"],
  ["releases", "Releases"],
  ["tokens", "API tokens"],
  ["integrations", "Integrations"],
  ["settings", "Settings"],
  ["members", "Members"],
  ["audit", "Audit log"],
] as const;

/** The role a tab needs (docs/dashboard.md "Roles"); a tab the user cannot use is not shown. */
const TAB_ROLE: Partial<Record<(typeof PROJECT_TABS)[number][0], string>> = { tokens: "developer", integrations: "developer", settings: "admin", members: "admin", audit: "admin" };
export type ProjectTab = (typeof PROJECT_TABS)[number][0];

/** The project's header and tabs around a page's content. */
export async function projectPage(pid: string, tab: ProjectTab, title: string, body: (project: Project) => Promise<Child> | Child): Promise<Child> {
  const project = await get<Project>(projectPath(pid));
  session.projectRole = project.role ? { role: project.role, languages: project.role_languages ?? null } : null;
  setTitle(title, project.name);
  const tabs = h(
    "nav",
    { class: "tabs", "aria-label": "Project" },
    // A tab the role cannot use is not shown (docs/dashboard.md "Roles"); the audit log is for admins.
    PROJECT_TABS.filter(([name]) => !TAB_ROLE[name] || can(TAB_ROLE[name])).map(([name, label]) =>
      h("a", { href: href(`/projects/${encodeURIComponent(pid)}/${name}`), "aria-current": name === tab ? "page" : null }, label),
    ),
  );
  return [
    h(
      "div",
      { class: "project-head" },
      h("p", { class: "crumbs" }, link("/", "Projects"), " / "),
      h("h1", null, project.name),
      h(
        "p",
        { class: "muted small" },
        "Base language ",
        h("code", null, project.base_language_code),
        project.role ? [" · Your role ", h("strong", { class: "project-role" }, project.role), project.role_languages ? ` (${project.role_languages.join(", ")})` : null] : null,
      ),
    ),
    tabs,
    await body(project),
  ];
}

export async function projectLanguages(pid: string): Promise<Language[]> {
  const list = await get<{ items: Language[] }>(projectPath(pid, "languages"));
  // Base first, then by code in code-point order, as the server lists them (the user's chosen
  // languages come in that order too): the order the grid and releases show them in.
  return list.items.sort((a, b) => Number(b.is_base_language) - Number(a.is_base_language) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function adminOnly(what: string): Child {
  return isAdmin() ? null : h("p", { class: "note" }, `Only admins can ${what}.`);
}

/** The note where a form would be for a user whose project role is below `role`. */
export function roleOnly(role: string, what: string): Child {
  return can(role) ? null : h("p", { class: "note" }, `Only a ${role} or an admin of the project can ${what}.`);
}
