/**
 * A server process behind Debian's nginx with TLS, the API on one origin and a pull cache for the
 * CDN on another: the layout of docs/deploy/nginx.conf (test/helpers/nginx.ts), with a signed-in
 * admin talking to the dashboard API through the proxy.
 */
import { expect } from "bun:test";
import { testCa } from "./https-receiver.ts";
import { startNginx, type Nginx } from "./nginx.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, startServer, type TestServer } from "./server.ts";

export interface BehindNginx {
  server: TestServer;
  nginx: Nginx;
  /** https origin of the dashboard and the API, through nginx. */
  publicUrl: string;
  /** https origin of the CDN, through nginx's proxy_cache. */
  cdnUrl: string;
  /** fetch that trusts the test CA and follows no redirect. */
  tlsFetch(url: string, init?: RequestInit): Promise<Response>;
  /** A dashboard API call through the proxy, as the signed-in admin. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** Creates a release and publishes it; returns the published release detail. */
  publishRelease(pid: string, tag: string): Promise<any>;
  stop(): Promise<void>;
}

export async function startBehindNginx(): Promise<BehindNginx> {
  const ca = testCa();
  const publicPort = await freePort();
  const cdnPort = await freePort();
  const publicUrl = `https://127.0.0.1:${publicPort}`;
  const cdnUrl = `https://127.0.0.1:${cdnPort}`;
  const server = await startServer({ env: { PHRASEBOOK_PUBLIC_URL: publicUrl, PHRASEBOOK_CDN_URL: cdnUrl, PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1" } });
  let nginx: Nginx;
  try {
    nginx = await startNginx({ upstreamPort: server.port, publicPort, cdnPort, cert: ca.certs.good.cert, key: ca.certs.good.key });
  } catch (err) {
    await server.stop();
    throw err;
  }
  const tlsFetch = (url: string, init: RequestInit = {}) => fetch(url, { ...init, redirect: "manual", tls: { ca: ca.caPem } } as RequestInit);

  const login = await tlsFetch(`${publicUrl}/dashboard/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const csrf = ((await login.json()) as any).csrf_token;

  async function api(method: string, path: string, body?: unknown) {
    const res = await tlsFetch(`${publicUrl}/dashboard/api${path}`, {
      method,
      headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any, headers: res.headers };
  }

  async function publishRelease(pid: string, tag: string) {
    const rel = await api("POST", `/projects/${pid}/releases`, { name: tag, tag });
    const pub = await api("POST", `/projects/${pid}/releases/${rel.body.id}/publish`);
    expect(pub.status).toBe(200);
    return pub.body;
  }

  return {
    server,
    nginx: nginx!,
    publicUrl,
    cdnUrl,
    tlsFetch,
    api,
    publishRelease,
    async stop() {
      await nginx?.stop();
      await server.stop();
    },
  };
}
