/**
 * Phrasebook behind Debian's nginx with TLS, the API on one origin and a pull cache for the CDN on
 * another, exactly the layout of docs/deploy/nginx.conf: a server process and an nginx process.
 * That the edge serves a new publish on `latest` once its 60 s are up is in
 * test/ops/pull-cdn.slow.test.ts, which waits that long.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startBehindNginx, type BehindNginx } from "../helpers/behind-nginx.ts";
import { testCa } from "../helpers/https-receiver.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

let p: BehindNginx;
const ca = testCa();

/** A request from another loopback address, as a different client machine would make it. */
function curlFrom(source: string, url: string, args: string[] = []): { status: number; body: string } {
  const r = Bun.spawnSync(["curl", "-s", "--interface", source, "--cacert", ca.caFile, "-w", "\n%{http_code}", ...args, url]);
  const out = r.stdout.toString();
  const cut = out.lastIndexOf("\n");
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

beforeAll(async () => {
  p = await startBehindNginx();
});

afterAll(async () => {
  await p?.stop();
});

describe("behind a reverse proxy", () => {
  test("the session cookie is Secure when the public URL is https; redirects stay on the proxy's origin", async () => {
    const login = await p.tlsFetch(`${p.publicUrl}/dashboard/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const setCookie = login.headers.get("set-cookie")!;
    expect(setCookie).toContain("; Secure");
    expect(setCookie).toContain("HttpOnly");
    const root = await p.tlsFetch(`${p.publicUrl}/`);
    expect(root.status).toBe(302);
    expect(new URL(root.headers.get("location")!, p.publicUrl).origin).toBe(p.publicUrl);
  });

  test("download URLs name the CDN host, and resolve through it", async () => {
    const project = await p.api("POST", "/projects", { name: "Proxied", base_language_code: "en" });
    const pid = project.body.id;
    await p.api("POST", `/projects/${pid}/languages`, { code: "de" });
    const key = await p.api("POST", `/projects/${pid}/keys`, { key: "hello" });
    await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "Hello" });
    await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/de`, { value: "Hallo" });
    const release = await p.publishRelease(pid, "v1");
    const token = (await p.api("POST", `/projects/${pid}/tokens`, { name: "proxy" })).body.token;
    const detail = await p.tlsFetch(`${p.publicUrl}/v1/releases/${release.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as any;
    for (const lang of body.languages) {
      for (const url of Object.values(lang.download_urls) as string[]) {
        expect(url).toStartWith(`${p.cdnUrl}/p/`);
        const file = await p.tlsFetch(url);
        expect(file.status).toBe(200);
        expect(await file.text()).toContain(lang.code === "de" ? "Hallo" : "Hello");
      }
    }
    // The CDN host answers nothing but files.
    expect((await p.tlsFetch(`${p.cdnUrl}/dashboard`)).status).toBe(404);
  });

  test("client addresses come from the trusted proxy's header, and a client cannot forge one", async () => {
    const bad = JSON.stringify({ email: "nobody@example.test", password: "wrong password" });
    const args = ["-X", "POST", "-H", "content-type: application/json", "-H", "X-Forwarded-For: 203.0.113.50", "--data", bad];
    const statuses = Array.from({ length: 6 }, () => curlFrom("127.0.0.2", `${p.publicUrl}/dashboard/api/login`, args).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another machine behind the same proxy is not limited by the first one's failures.
    expect(curlFrom("127.0.0.3", `${p.publicUrl}/dashboard/api/login`, args).status).toBe(401);
    // Straight to the server, the peer is not a trusted proxy: its header is ignored.
    const direct = curlFrom("127.0.0.4", `http://127.0.0.1:${p.server.port}/healthz`, ["-H", "X-Forwarded-For: 198.51.100.1"]);
    expect(direct.status).toBe(200);
    const loggedClients = () =>
      p.server
        .output()
        .split("\n")
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l).client as string);
    // Request log lines are written in batches: wait for the three peers' lines to be flushed.
    const clients = await eventually(() => ["127.0.0.2", "127.0.0.3", "127.0.0.4"].every((c) => loggedClients().includes(c)) && loggedClients(), { what: () => `request lines from the three peers; clients logged: ${loggedClients().join(" ")}` });
    expect(clients).toContain("127.0.0.2");
    expect(clients).toContain("127.0.0.3");
    expect(clients).toContain("127.0.0.4");
    expect(clients).not.toContain("203.0.113.50");
    expect(clients).not.toContain("198.51.100.1");
  });
});

describe("nginx proxy_cache as a pull CDN honours the headers", () => {
  test("pinned and latest files are cached at the edge, 404s are not, and a language added later shows through it at once", async () => {
    const pid = (await p.api("POST", "/projects", { name: "Pull CDN", base_language_code: "en" })).body.id;
    const key = await p.api("POST", `/projects/${pid}/keys`, { key: "title" });
    await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "First" });
    const first = await p.publishRelease(pid, "one");
    const pinned: string = first.languages[0].download_urls.json;
    const latest = pinned.replace(/\/r\/[^/]+\//, "/r/latest/");
    const fr = latest.replace("/en.json", "/fr.json");

    const status = async (url: string) => {
      const r = await p.tlsFetch(url);
      return { code: r.status, cache: r.headers.get("x-cache-status"), body: await r.text() };
    };
    expect(await status(pinned)).toMatchObject({ code: 200, cache: "MISS" });
    expect(await status(pinned)).toMatchObject({ code: 200, cache: "HIT" });
    expect(await status(latest)).toMatchObject({ code: 200, cache: "MISS" });
    expect(await status(latest)).toMatchObject({ code: 200, cache: "HIT" });
    // A 404 says no-store: never cached, so it cannot outlive the language's arrival.
    expect((await status(fr)).code).toBe(404);
    expect((await status(fr)).cache).not.toBe("HIT");

    await p.api("POST", `/projects/${pid}/languages`, { code: "fr" });
    await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/fr`, { value: "Deuxième" });
    await p.publishRelease(pid, "two");
    expect(await status(fr)).toMatchObject({ code: 200 });
    expect(JSON.parse((await status(fr)).body)).toEqual({ title: "Deuxième" });
    // Pinned files of the first release are still served from the edge, unchanged.
    const pinnedAgain = await status(pinned);
    expect(pinnedAgain).toMatchObject({ code: 200, cache: "HIT" });
    expect(JSON.parse(pinnedAgain.body)).toEqual({ title: "First" });
  });
});
