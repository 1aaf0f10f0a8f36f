/**
 * A small client for the dashboard JSON API, as a team's automation script would use it. It talks
 * HTTP to a server process, or, given an in-process transport (test/helpers/app.ts), calls the app
 * directly with the same requests.
 */
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./server.ts";

/** How a request reaches the server: `fetch` over HTTP, or the app's own `handle`. */
export type Transport = (request: Request) => Promise<Response>;

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class DashboardClient {
  cookie = "";
  csrf = "";
  /** An API token sent as `Authorization: Bearer` (docs/product.md §6), instead of or beside a session. */
  bearer = "";

  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport = (request) => fetch(request, { redirect: "manual" }),
  ) {}

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<Reply> {
    const reply = await this.request("POST", "/login", { email, password });
    if (reply.status === 200) {
      this.cookie = (reply.headers.get("set-cookie") ?? "").split(";")[0]!;
      this.csrf = reply.body.csrf_token;
    }
    return reply;
  }

  static async loggedIn(baseUrl: string, email?: string, password?: string, transport?: Transport): Promise<DashboardClient> {
    const client = new DashboardClient(baseUrl, transport);
    const reply = await client.login(email, password);
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return client;
  }

  async request<T = any>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && method !== "GET") headers["x-csrf-token"] = this.csrf;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    let payload: string | Uint8Array<ArrayBuffer> | undefined;
    if (body !== undefined) {
      // A file route's body (TMX, CSV, an image) goes as it is, with the type the caller gives.
      headers["content-type"] ??= "application/json";
      payload = typeof body === "string" || body instanceof Uint8Array ? (body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(body);
    }
    const res = await this.transport(new Request(`${this.baseUrl}/dashboard/api${path}`, { method, headers, body: payload }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // leave as text: a test asserting JSON will say so
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** A GET whose answer is a file, not JSON (an export): its status, headers and text as sent. */
  async download(path: string): Promise<{ status: number; text: string; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await this.transport(new Request(`${this.baseUrl}/dashboard/api${path}`, { headers }));
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  /** A request whose body is a file (a TMX memory, a CSV glossary, an image), sent as `type`. */
  async upload<T = any>(method: string, path: string, body: string | Uint8Array<ArrayBuffer>, type: string): Promise<Reply<T>> {
    const headers: Record<string, string> = { "content-type": type };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf) headers["x-csrf-token"] = this.csrf;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await this.transport(new Request(`${this.baseUrl}/dashboard/api${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // leave as text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = any>(path: string) => this.request<T>("GET", path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>("POST", path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.request<T>("PUT", path, body);
  patch = <T = any>(path: string, body?: unknown) => this.request<T>("PATCH", path, body);
  delete = <T = any>(path: string) => this.request<T>("DELETE", path);

  /** Creates a project with extra languages and returns its id. */
  async project(name = "Shop", base = "en", extra: string[] = []): Promise<string> {
    const p = await this.post("/projects", { name, base_language_code: base });
    if (p.status !== 201) throw new Error(`project create failed: ${JSON.stringify(p.body)}`);
    for (const code of extra) {
      const l = await this.post(`/projects/${p.body.id}/languages`, { code });
      if (l.status !== 201) throw new Error(`language add failed: ${JSON.stringify(l.body)}`);
    }
    return p.body.id;
  }

  /** Creates a key with translations ({code: value}) and returns the key id. */
  async key(pid: string, key: string, values: Record<string, string> = {}, context?: string): Promise<string> {
    const k = await this.post(`/projects/${pid}/keys`, context === undefined ? { key } : { key, context });
    if (k.status !== 201) throw new Error(`key create failed: ${JSON.stringify(k.body)}`);
    for (const [code, value] of Object.entries(values)) {
      const t = await this.put(`/projects/${pid}/keys/${k.body.id}/translations/${code}`, { value });
      if (t.status !== 200) throw new Error(`translate failed: ${JSON.stringify(t.body)}`);
    }
    return k.body.id;
  }
}
