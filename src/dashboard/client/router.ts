import { h, type Child } from "./dom.ts";

/**
 * Path routing under /dashboard with the History API, so every page has a real URL (deep links,
 * reloads, the back button); the server answers every /dashboard path with the same shell.
 */
export const BASE = "/dashboard";

export interface Ctx {
  params: Record<string, string>;
  query: URLSearchParams;
  path: string;
}

export interface Route {
  pattern: string;
  /** Returns nothing when it navigated elsewhere instead. */
  page: (ctx: Ctx) => Promise<Child | void> | Child | void;
  /** Reachable without a session (login, first-run setup). */
  public?: boolean;
}

interface Compiled extends Route {
  regex: RegExp;
  names: string[];
}

let table: Compiled[] = [];
let renderer: (route: Route | null, ctx: Ctx) => void = () => {};
/** The path of the page on screen, and its handler for a change of the query string alone. */
let shown = "";
let queryHandler: ((query: URLSearchParams) => void) | null = null;

/**
 * A page whose state lives in the query string (the key grid's filters) takes back/forward
 * between two of its own URLs itself, without being drawn again: `handler` gets the new query.
 * Any other navigation forgets it.
 */
export function onQueryChange(handler: (query: URLSearchParams) => void): void {
  queryHandler = handler;
}

export function defineRoutes(routes: Route[], render: (route: Route | null, ctx: Ctx) => void): void {
  table = routes.map((r) => {
    const names: string[] = [];
    const source = r.pattern.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { ...r, names, regex: new RegExp(`^${BASE}${source}/?$`) };
  });
  renderer = render;
}

export function resolve(): void {
  const { pathname, search } = location;
  const query = new URLSearchParams(search);
  queryHandler = null;
  shown = pathname;
  for (const route of table) {
    const m = route.regex.exec(pathname);
    if (m) {
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      renderer(route, { params, query, path: pathname });
      return;
    }
  }
  renderer(null, { params: {}, query, path: pathname });
}

/** `to` is relative to /dashboard ("/projects/x") or already absolute. */
export function href(to: string): string {
  return to.startsWith(BASE) ? to : BASE + (to === "/" ? "" : to);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = href(to);
  if (options.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  const handler = queryHandler;
  if (handler && location.pathname === shown) return handler(new URLSearchParams(location.search));
  resolve();
  window.scrollTo(0, 0);
}

/**
 * Updates the query string (search, page): by default without adding a history entry (a keystroke
 * is no step back); `push` adds one, so the back button returns to the state before.
 */
export function setQuery(values: Record<string, string | number | null>, options: { push?: boolean } = {}): void {
  const query = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === "" || v === 1) query.delete(k);
    else query.set(k, String(v));
  }
  const qs = query.toString();
  const url = location.pathname + (qs ? `?${qs}` : "");
  if (url === location.pathname + location.search) return;
  if (options.push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

export function link(to: string, ...children: Child[]): HTMLAnchorElement {
  return h("a", { href: href(to) }, ...children);
}

export function startRouter(): void {
  window.addEventListener("popstate", () => {
    const handler = queryHandler;
    if (handler && location.pathname === shown) handler(new URLSearchParams(location.search));
    else resolve();
  });
  // Same-origin links inside the dashboard change pages without a reload; modified clicks
  // (new tab, download) and links to the API, the CDN or elsewhere behave as usual.
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = (event.target as Element).closest?.("a");
    if (!a || a.target || a.hasAttribute("download") || a.origin !== location.origin) return;
    if (!a.pathname.startsWith(BASE) || a.pathname.startsWith(`${BASE}/api/`) || a.pathname.startsWith(`${BASE}/assets/`)) return;
    event.preventDefault();
    navigate(a.pathname + a.search);
  });
  resolve();
}
