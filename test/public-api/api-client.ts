/**
 * A client for the public API as an app would use it, which checks every answer it gets against
 * the server's own OpenAPI document (every live response checked against the document's schemas)
 * and that every answer carries the X-RateLimit-* headers (product §2).
 *
 * It talks to the app in-process (`appFixture`, test/helpers/app.ts) or over HTTP to a server
 * process (`startFixture`, for the tests that need a browser or a socket).
 */
import { expect } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { ORIGIN, testApp, type TestApp, type TestAppOptions } from "../helpers/app.ts";
import { DashboardClient, type Transport } from "../helpers/dashboard-client.ts";
import { startServer, type StartOptions, type TestServer } from "../helpers/server.ts";

export interface ApiReply<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

const TEMPLATES: [RegExp, string][] = [
  [/^\/v1\/projects$/, "/projects"],
  [/^\/v1\/releases$/, "/releases"],
  [/^\/v1\/releases\/[^/]+$/, "/releases/{release_id}"],
  [/^\/v1\/project-languages$/, "/project-languages"],
];

export class ApiClient {
  private doc: any;
  private ajv: Ajv2020 | undefined;
  private validators = new Map<string, ValidateFunction>();
  /** How many answers were checked against the document (a test asserts this is not zero). */
  checked = 0;

  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport = (request) => fetch(request, { redirect: "manual" }),
  ) {}

  async document(): Promise<any> {
    if (!this.doc) {
      const res = await this.transport(new Request(`${this.baseUrl}/v1/openapi.json`));
      this.doc = await res.json();
      // Strict about schema keywords and formats (an unknown one is an error, not a warning), lenient
      // only about the OpenAPI wrapper around the schemas.
      const ajv = new Ajv2020({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: true });
      addFormats(ajv);
      ajv.addVocabulary(["openapi", "info", "servers", "security", "paths", "components"]);
      ajv.addSchema({ ...this.doc, $id: "phrasebook-openapi" });
      this.ajv = ajv;
    }
    return this.doc;
  }

  /** The validator for the body the document promises for this path and status. */
  async validatorFor(path: string, status: number): Promise<ValidateFunction | undefined> {
    const doc = await this.document();
    const template = TEMPLATES.find(([re]) => re.test(path))?.[1];
    if (!template) return undefined;
    const response = doc.paths[template].get.responses[String(status)];
    if (!response) throw new Error(`the document lists no ${status} for GET ${template}`);
    const resolved = response.$ref ? doc.components.responses[response.$ref.split("/").pop()] : response;
    // A named schema is a $ref into the components; an inline one (an error body described for its
    // status) is reached by its JSON pointer in the document.
    const pointer = (...parts: string[]) => "#/" + parts.map((p) => encodeURIComponent(p.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");
    const ref: string = resolved.content["application/json"].schema.$ref ?? pointer("paths", template, "get", "responses", String(status), "content", "application/json", "schema");
    let v = this.validators.get(ref);
    if (!v) {
      v = this.ajv!.getSchema(`phrasebook-openapi${ref}`)!;
      this.validators.set(ref, v);
    }
    return v;
  }

  /** A GET, checked: never a 5xx, the quota headers, JSON, and the body the document promises. */
  get<T = any>(pathAndQuery: string, token?: string | null, extraHeaders: Record<string, string> = {}): Promise<ApiReply<T>> {
    return this.request<T>("GET", pathAndQuery, token, extraHeaders);
  }

  /** Any method; answers to other methods than GET are checked for everything but a body schema. */
  async request<T = any>(method: string, pathAndQuery: string, token?: string | null, extraHeaders: Record<string, string> = {}): Promise<ApiReply<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await this.transport(new Request(`${this.baseUrl}${pathAndQuery}`, { method, headers }));
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the checks below fail loudly
    }
    expect(res.status).toBeLessThan(500);
    for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(res.headers.get(h), `${h} on ${res.status} ${method} ${pathAndQuery}`).toMatch(/^\d+$/);
    }
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const path = pathAndQuery.split("?")[0]!;
    const validate = method === "GET" ? await this.validatorFor(path, res.status) : undefined;
    if (validate) {
      const ok = validate(body);
      expect(ok ? [] : validate.errors, `${res.status} ${pathAndQuery} against the OpenAPI document`).toEqual([]);
      this.checked++;
    }
    return { status: res.status, body, text, headers: res.headers };
  }
}

/** The app in-process with a signed-in admin and an API client on the same transport. */
export interface AppFixture {
  t: TestApp;
  dash: DashboardClient;
  api: ApiClient;
}

/** The app in-process (a ManualClock unless one is given); request logging stays off. */
export async function appFixture(options: TestAppOptions = {}): Promise<AppFixture> {
  const t = await testApp(options);
  const dash = await t.login();
  return { t, dash, api: apiClient(t, options.peer) };
}

/** An API client calling the app in-process, as a caller at `peer` (the TCP address the app sees). */
export function apiClient(t: TestApp, peer = "127.0.0.1"): ApiClient {
  return new ApiClient(ORIGIN, async (request) => t.app.handle(request, () => peer));
}

/** A server process, for the tests that need one (a browser on the docs page). */
export interface Fixture {
  server: TestServer;
  dash: DashboardClient;
  api: ApiClient;
}

export async function startFixture(options: StartOptions = {}): Promise<Fixture> {
  const server = await startServer({ ...options, env: { PHRASEBOOK_LOG_REQUESTS: "false", ...options.env } });
  const dash = await DashboardClient.loggedIn(server.url);
  return { server, dash, api: new ApiClient(server.url) };
}

export async function newToken(dash: DashboardClient, pid: string, name = "app"): Promise<string> {
  const r = await dash.post(`/projects/${pid}/tokens`, { name });
  if (r.status !== 201) throw new Error(`token create failed: ${JSON.stringify(r.body)}`);
  return r.body.token;
}

export async function draft(dash: DashboardClient, pid: string, name: string, tag: string): Promise<string> {
  const r = await dash.post(`/projects/${pid}/releases`, { name, tag });
  if (r.status !== 201) throw new Error(`release create failed: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

export async function publish(dash: DashboardClient, pid: string, rid: string): Promise<any> {
  const r = await dash.post(`/projects/${pid}/releases/${rid}/publish`);
  if (r.status !== 200) throw new Error(`publish failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function published(dash: DashboardClient, pid: string, name: string, tag: string): Promise<string> {
  const rid = await draft(dash, pid, name, tag);
  await publish(dash, pid, rid);
  return rid;
}
