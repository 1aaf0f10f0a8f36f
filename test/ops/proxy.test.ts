import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testCa } from "../helpers/https-receiver.ts";
import { startNginx, type Nginx } from "../helpers/nginx.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server.ts";

/**
 * Issue 7: Phrasebook behind Debian's nginx with TLS, the API on one origin and a pull cache for
 * the CDN on another, exactly the layout of docs/deploy/nginx.conf.
 */
let server: TestServer;
let nginx: Nginx;
let publicUrl: string;
let cdnUrl: string;
const ca = testCa();

const tlsFetch = (url: string, init: RequestInit = {}) => fetch(url, { ...init, redirect: "manual", tls: { ca: ca.caPem } } as RequestInit);

/** A request from another loopback address, as a different client machine would make it. */
function curlFrom(source: string, url: string, args: string[] = []): { status: number; body: string } {
  const r = Bun.spawnSync(["curl", "-s", "--interface", source, "--cacert", ca.caFile, "-w", "\n%{http_code}", ...args, url]);
  const out = r.stdout.toString();
  const cut = out.lastIndexOf("\n");
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

let cookie = "";
let csrf = "";
async function api(method: string, path: string, body?: unknown) {
  const res = await tlsFetch(`${publicUrl}/dashboard/api${path}`, {
    method,
    headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any, headers: res.headers };
}

beforeAll(async () => {
  const publicPort = await freePort();
  const cdnPort = await freePort();
  publicUrl = `https://127.0.0.1:${publicPort}`;
  cdnUrl = `https://127.0.0.1:${cdnPort}`;
  server = await startServer({ env: { PHRASEBOOK_PUBLIC_URL: publicUrl, PHRASEBOOK_CDN_URL: cdnUrl, PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1" } });
  nginx = await startNginx({ upstreamPort: server.port, publicPort, cdnPort, cert: ca.certs.good.cert, key: ca.certs.good.key });
  const login = await tlsFetch(`${publicUrl}/dashboard/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  csrf = ((await login.json()) as any).csrf_token;
});

afterAll(async () => {
  await nginx?.stop();
  await server?.stop();
});

async function publishRelease(pid: string, tag: string) {
  const rel = await api("POST", `/projects/${pid}/releases`, { name: tag, tag });
  const pub = await api("POST", `/projects/${pid}/releases/${rel.body.id}/publish`);
  expect(pub.status).toBe(200);
  return pub.body;
}

describe("issue 7: behind a reverse proxy", () => {
  test("the session cookie is Secure when the public URL is https; redirects stay on the proxy's origin", async () => {
    const login = await tlsFetch(`${publicUrl}/dashboard/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const setCookie = login.headers.get("set-cookie")!;
    expect(setCookie).toContain("; Secure");
    expect(setCookie).toContain("HttpOnly");
    const root = await tlsFetch(`${publicUrl}/`);
    expect(root.status).toBe(302);
    expect(new URL(root.headers.get("location")!, publicUrl).origin).toBe(publicUrl);
  });

  test("download URLs name the CDN host, and resolve through it", async () => {
    const project = await api("POST", "/projects", { name: "Proxied", base_language_code: "en" });
    const pid = project.body.id;
    await api("POST", `/projects/${pid}/languages`, { code: "de" });
    const key = await api("POST", `/projects/${pid}/keys`, { key: "hello" });
    await api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "Hello" });
    await api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/de`, { value: "Hallo" });
    const release = await publishRelease(pid, "v1");
    const token = (await api("POST", `/projects/${pid}/tokens`, { name: "proxy" })).body.token;
    const detail = await tlsFetch(`${publicUrl}/v1/releases/${release.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as any;
    for (const lang of body.languages) {
      for (const url of Object.values(lang.download_urls) as string[]) {
        expect(url).toStartWith(`${cdnUrl}/p/`);
        const file = await tlsFetch(url);
        expect(file.status).toBe(200);
        expect(await file.text()).toContain(lang.code === "de" ? "Hallo" : "Hello");
      }
    }
    // The CDN host answers nothing but files.
    expect((await tlsFetch(`${cdnUrl}/dashboard`)).status).toBe(404);
  });

  test("client addresses come from the trusted proxy's header, and a client cannot forge one", async () => {
    const bad = JSON.stringify({ email: "nobody@example.test", password: "wrong password" });
    const args = ["-X", "POST", "-H", "content-type: application/json", "-H", "X-Forwarded-For: 203.0.113.50", "--data", bad];
    const statuses = Array.from({ length: 6 }, () => curlFrom("127.0.0.2", `${publicUrl}/dashboard/api/login`, args).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another machine behind the same proxy is not limited by the first one's failures.
    expect(curlFrom("127.0.0.3", `${publicUrl}/dashboard/api/login`, args).status).toBe(401);
    // Straight to the server, the peer is not a trusted proxy: its header is ignored.
    const direct = curlFrom("127.0.0.4", `http://127.0.0.1:${server.port}/healthz`, ["-H", "X-Forwarded-For: 198.51.100.1"]);
    expect(direct.status).toBe(200);
    await Bun.sleep(400); // request log lines are written in batches
    const clients = server
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l).client);
    expect(clients).toContain("127.0.0.2");
    expect(clients).toContain("127.0.0.3");
    expect(clients).toContain("127.0.0.4");
    expect(clients).not.toContain("203.0.113.50");
    expect(clients).not.toContain("198.51.100.1");
  });
});

describe("issue 7: nginx proxy_cache as a pull CDN honours the headers", () => {
  test("pinned files are cached, 404s are not, and a publish shows on latest within about a minute", async () => {
    const pid = (await api("POST", "/projects", { name: "Pull CDN", base_language_code: "en" })).body.id;
    const key = await api("POST", `/projects/${pid}/keys`, { key: "title" });
    await api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "First" });
    const first = await publishRelease(pid, "one");
    const pinned: string = first.languages[0].download_urls.json;
    const latest = pinned.replace(/\/r\/[^/]+\//, "/r/latest/");
    const fr = latest.replace("/en.json", "/fr.json");

    const status = async (url: string) => {
      const r = await tlsFetch(url);
      return { code: r.status, cache: r.headers.get("x-cache-status"), body: await r.text() };
    };
    expect(await status(pinned)).toMatchObject({ code: 200, cache: "MISS" });
    expect(await status(pinned)).toMatchObject({ code: 200, cache: "HIT" });
    const latestFirst = await status(latest);
    expect(latestFirst).toMatchObject({ code: 200, cache: "MISS" });
    const cachedAt = Date.now();
    expect(JSON.parse(latestFirst.body)).toEqual({ title: "First" });
    expect(await status(latest)).toMatchObject({ code: 200, cache: "HIT" });
    // A 404 says no-store: never cached, so it cannot outlive the language's arrival.
    expect((await status(fr)).code).toBe(404);
    expect((await status(fr)).cache).not.toBe("HIT");

    await api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "Second" });
    await api("POST", `/projects/${pid}/languages`, { code: "fr" });
    await api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/fr`, { value: "Deuxième" });
    await publishRelease(pid, "two");
    // The origin shows the publish at once; the new language is there at once through the cache too.
    expect(JSON.parse(await (await fetch(latest.replace(cdnUrl, `http://127.0.0.1:${server.port}`))).text())).toEqual({ title: "Second" });
    expect(await status(fr)).toMatchObject({ code: 200 });
    // The edge keeps the old latest until its 60 s are up, then revalidates and serves the new one.
    expect(JSON.parse((await status(latest)).body)).toEqual({ title: "First" });
    let seen = "First";
    while (seen === "First" && Date.now() - cachedAt < 75_000) {
      await Bun.sleep(2000);
      seen = JSON.parse((await status(latest)).body).title;
    }
    const after = Date.now() - cachedAt;
    expect(seen).toBe("Second");
    expect(after).toBeGreaterThanOrEqual(58_000);
    expect(after).toBeLessThan(75_000);
    // Pinned files of the first release are still served from the edge, unchanged.
    const pinnedAgain = await status(pinned);
    expect(pinnedAgain).toMatchObject({ code: 200, cache: "HIT" });
    expect(JSON.parse(pinnedAgain.body)).toEqual({ title: "First" });
  }, 120_000);
});
