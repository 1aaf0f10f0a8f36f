/**
 * The pages' only way to the server: the documented dashboard JSON API (docs/product.md §4). The
 * session cookie rides along by itself; the CSRF token from /login or /me goes in a header on every
 * change.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole answer, for errors that carry more than a message (a refused publish lists problems). */
    readonly data: any = null,
  ) {
    super(message);
  }
}

import type { UserView } from "../../accounts/users.ts";

/** The server's own shapes, imported as types only (nothing of the server is in the bundle). */
export type User = UserView;
export type { PageInfo } from "../../common/paging.ts";

/** The signed-in user's role in the project on screen (set by layout.ts projectPage), null elsewhere. */
export interface ProjectRoleOnScreen {
  role: string;
  languages: string[] | null;
}
export const session = { csrf: "", user: null as User | null, projectRole: null as ProjectRoleOnScreen | null };

/** Called when a request finds the session gone, so the app can show the login page. */
let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

const PREFIX = "/dashboard/api";

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET" && session.csrf) headers["x-csrf-token"] = session.csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(PREFIX + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "the server did not answer; check your connection and try again");
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(res.status, `unexpected answer from the server (HTTP ${res.status})`);
  }
  if (!res.ok) {
    const message = typeof data?.error === "string" ? data.error : `request failed (HTTP ${res.status})`;
    if (res.status === 401 && !path.startsWith("/login") && !path.startsWith("/setup") && path !== "/me") onUnauthorized();
    throw new ApiError(res.status, message, data);
  }
  return data as T;
}

export const get = <T = any>(path: string) => api<T>("GET", path);
export const post = <T = any>(path: string, body: unknown = {}) => api<T>("POST", path, body);
export const put = <T = any>(path: string, body: unknown) => api<T>("PUT", path, body);
export const patch = <T = any>(path: string, body: unknown) => api<T>("PATCH", path, body);
export const del = (path: string) => api<void>("DELETE", path);

/** The project roles, lowest first (docs/dashboard-api.md "Project roles"). */
const ROLE_ORDER = ["viewer", "translator", "reviewer", "developer", "publisher", "admin"];

/**
 * Whether the signed-in user holds `role` or higher in the project on screen; a global admin
 * always. The pages offer only what the server would allow (docs/dashboard.md "Roles").
 */
export const can = (role: string) =>
  session.user?.role === "admin" || (session.projectRole !== null && ROLE_ORDER.indexOf(session.projectRole.role) >= ROLE_ORDER.indexOf(role));
/**
 * Whether the signed-in user may change (`translator`) or approve (`reviewer`) values in language
 * `code` of the project on screen: the role, and for a translator or reviewer their languages (all
 * when absent), as the server judges it (docs/dashboard-api.md "Project roles"). The pages show no
 * control, and run no shortcut, that this denies (docs/dashboard.md "Roles").
 */
export function canInLanguage(role: "translator" | "reviewer", code: string): boolean {
  if (!can(role)) return false;
  if (can("developer")) return true;
  const languages = session.projectRole?.languages ?? null;
  return languages === null || languages.some((c) => c.toLowerCase() === code.toLowerCase());
}
export const canEdit = (code: string) => canInLanguage("translator", code);
export const canApprove = (code: string) => canInLanguage("reviewer", code);
/** A project's admin inside a project (its settings, tokens, webhooks, members); a global admin. */
export const isAdmin = () => can("admin");
/** Users and creating projects are a global admin's alone. */
export const isGlobalAdmin = () => session.user?.role === "admin";

/** Builds `/projects/<pid>/...` with each part escaped. */
export function projectPath(pid: string, ...parts: string[]): string {
  return ["/projects", pid, ...parts].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join("/");
}
