import { ApiError, get, session, whenUnauthorized, type User } from "./api.ts";
import { fill, h, type Child } from "./dom.ts";
import { setTitle, topbar } from "./layout.ts";
import { auditPage, projectAuditPage } from "./pages/audit.ts";
import { loginPage, setupPage } from "./pages/auth.ts";
import { importPage } from "./pages/import.ts";
import { keysPage } from "./pages/keys.ts";
import { languagesPage } from "./pages/languages.ts";
import { projectsPage } from "./pages/projects.ts";
import { releasePage } from "./pages/release.ts";
import { releasesPage } from "./pages/releases.ts";
import { settingsPage } from "./pages/settings.ts";
import { membersPage } from "./pages/members.ts";
import { tokensPage } from "./pages/tokens.ts";
import { translatePage } from "./pages/translate.ts";
import { usersPage } from "./pages/users.ts";
import { deliveryPage, endpointPage, integrationsPage } from "./pages/webhooks.ts";
import { defineRoutes, navigate, resolve, startRouter, type Ctx, type Route } from "./router.ts";
import { loadError } from "./ui.ts";

const root = document.getElementById("app")!;

const routes: Route[] = [
  { pattern: "/login", page: loginPage, public: true },
  { pattern: "/setup", page: setupPage, public: true },
  { pattern: "", page: projectsPage },
  { pattern: "/users", page: usersPage },
  { pattern: "/audit", page: auditPage },
  { pattern: "/projects/:pid", page: (c) => navigate(`/projects/${encodeURIComponent(c.params.pid!)}/keys`, { replace: true }) },
  { pattern: "/projects/:pid/keys", page: keysPage },
  { pattern: "/projects/:pid/translate", page: translatePage },
  { pattern: "/projects/:pid/import", page: importPage },
  { pattern: "/projects/:pid/languages", page: languagesPage },
  { pattern: "/projects/:pid/releases", page: releasesPage },
  { pattern: "/projects/:pid/releases/:rid", page: releasePage },
  { pattern: "/projects/:pid/tokens", page: tokensPage },
  { pattern: "/projects/:pid/integrations", page: integrationsPage },
  { pattern: "/projects/:pid/integrations/:wid", page: endpointPage },
  { pattern: "/projects/:pid/deliveries/:did", page: deliveryPage },
  { pattern: "/projects/:pid/settings", page: settingsPage },
  { pattern: "/projects/:pid/members", page: membersPage },
  { pattern: "/projects/:pid/audit", page: projectAuditPage },
];

function notFoundPage(): Child {
  setTitle("Not found");
  return h("div", { class: "empty" }, h("p", { class: "empty-title" }, "There is no page here."), h("a", { href: "/dashboard" }, "Go to your projects"));
}

let renderCount = 0;

async function render(route: Route | null, ctx: Ctx): Promise<void> {
  const ticket = ++renderCount;
  if (route && !route.public && !session.user) {
    navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    return;
  }
  const area = route?.pattern === "/users" ? "users" : route?.pattern === "/audit" ? "audit" : route?.public ? null : "projects";
  const main = h("main", { class: "page", id: "main" });
  const shell = route?.public ? null : [topbar(area), main];
  let content: Child | void;
  try {
    content = route ? await route.page(ctx) : notFoundPage();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return; // whenUnauthorized has taken over
    content = loadError(err, () => resolve());
  }
  // A newer navigation started while this page loaded: its result wins.
  if (ticket !== renderCount || content === undefined) return;
  if (shell) {
    fill(main, content);
    fill(root, shell);
  } else fill(root, content);
  const focusTarget = root.querySelector<HTMLElement>("[autofocus]");
  focusTarget?.focus();
}

async function boot(): Promise<void> {
  whenUnauthorized(() => {
    session.user = null;
    session.csrf = "";
    navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
  });
  try {
    const me = await get<{ user: User; csrf_token: string }>("/me");
    session.user = me.user;
    session.csrf = me.csrf_token;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) {
      fill(root, loadError(err, () => location.reload()));
      return;
    }
  }
  defineRoutes(routes, (route, ctx) => void render(route, ctx));
  startRouter();
}

void boot();
