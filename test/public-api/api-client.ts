/**
 * A client for the public API as an app would use it, which checks every answer it gets against
 * the server's own OpenAPI document (issue 4: "every live response checked against the document's
 * schemas") and that every answer carries the X-RateLimit-* headers (CONTRACTS 2).
 */
import { expect } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { DashboardClient } from "../helpers/dashboard-client.ts";
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

  constructor(readonly baseUrl: string) {}

  async document(): Promise<any> {
    if (!this.doc) {
      const res = await fetch(`${this.baseUrl}/v1/openapi.json`);
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
    const ref: string = resolved.content["application/json"].schema.$ref;
    let v = this.validators.get(ref);
    if (!v) {
      v = this.ajv!.getSchema(`phrasebook-openapi${ref}`)!;
      this.validators.set(ref, v);
    }
    return v;
  }

  async get<T = any>(pathAndQuery: string, token?: string | null, extraHeaders: Record<string, string> = {}): Promise<ApiReply<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${this.baseUrl}${pathAndQuery}`, { headers });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the checks below fail loudly
    }
    expect(res.status).toBeLessThan(500);
    for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(res.headers.get(h), `${h} on ${res.status} ${pathAndQuery}`).toMatch(/^\d+$/);
    }
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const path = pathAndQuery.split("?")[0]!;
    const validate = await this.validatorFor(path, res.status);
    if (validate) {
      const ok = validate(body);
      expect(ok ? [] : validate.errors, `${res.status} ${pathAndQuery} against the OpenAPI document`).toEqual([]);
      this.checked++;
    }
    return { status: res.status, body, text, headers: res.headers };
  }
}

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
