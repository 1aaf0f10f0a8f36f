/**
 * Product §1: `phrasebook demo` fills an EMPTY data dir with a demo project
 * (3 languages, ~50 keys with ICU placeholders, one published release, one API token), prints the
 * dashboard URL, the admin login, the token and a `curl` line that works; on a data dir that
 * already holds data it only serves, and says so.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { freePort, serverCommand, startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

// Each test starts the real process on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(30_000);

const NO_BOOTSTRAP = { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" };

/** The banner comes right after the "listening" log line. */
function banner(server: TestServer, marker: string): Promise<string> {
  return eventually(() => server.output().includes(marker) && server.output(), { what: () => `no "${marker}" in the output:\n${server.output()}` });
}

function field(text: string, label: string): string {
  const m = new RegExp(`^\\s+${label}\\s+(\\S+)`, "m").exec(text);
  if (!m) throw new Error(`no "${label}" line in:\n${text}`);
  return m[1]!;
}

describe("phrasebook demo", () => {
  test("on an empty data dir: a demo project, a published release, a token, and a printed curl line that works", async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, "unrelated.txt"), "an operator's file"); // product §1: may hold unrelated files
    const server = await startServer({ args: ["demo"], dataDir, env: NO_BOOTSTRAP });
    try {
      const out = await banner(server, "Try the public API");
      expect(field(out, "Dashboard")).toBe(`${server.url}/dashboard`);
      expect(field(out, "Log in as")).toBe("admin@example.com");
      const password = field(out, "Password");
      const token = field(out, "API token");
      expect(token).toStartWith("pb_");
      // Secrets go to the terminal once, never into a log line.
      const logLines = out.split("\n").filter((l) => l.startsWith("{"));
      expect(logLines.join("\n")).not.toContain(token);
      expect(logLines.join("\n")).not.toContain(password);

      const curl = /^\s+(curl .*)$/m.exec(out)![1]!;
      expect(curl).toBe(`curl -H "Authorization: Bearer ${token}" ${server.url}/v1/releases`);
      const run = Bun.spawnSync(["bash", "-c", `${curl} --silent --fail`], { stdout: "pipe" });
      expect(run.exitCode).toBe(0);
      const releases = JSON.parse(run.stdout.toString());
      expect(releases.items).toHaveLength(1);
      expect(releases.items[0]).toMatchObject({ name: "Launch", tag: "v1.0.0", status: "published" });

      const api = await DashboardClient.loggedIn(server.url, "admin@example.com", password);
      const [project] = (await api.get("/projects")).body.items;
      const languages = (await api.get(`/projects/${project.id}/languages`)).body.items.map((l: { code: string }) => l.code);
      expect(languages).toEqual(["de", "en", "pt-BR"]);
      const keys = (await api.get(`/projects/${project.id}/keys?page_size=500`)).body;
      expect(keys.page_info.total_count).toBeGreaterThanOrEqual(45);

      // The token is the client's too (docs/automation.md): it reads, writes and publishes.
      expect((await api.get(`/projects/${project.id}/tokens`)).body.items.map((t: { scopes: string[] }) => t.scopes)).toEqual([["read", "write", "publish"]]);
      // The client line names this executable as it can be run from here (docs/product.md §1): run as printed, it answers.
      const clientLine = /^\s+(PHRASEBOOK_SERVER=(\S+) PHRASEBOOK_TOKEN=(\S+) (.+) status)$/m.exec(out)!;
      expect(clientLine.slice(2, 4)).toEqual([server.url, token]);
      expect(clientLine[4]).not.toBe("phrasebook"); // not on the PATH here: its path
      const status = Bun.spawnSync(["bash", "-c", clientLine[1]!], { cwd: dataDir, env: { PATH: "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" });
      expect(status.stderr.toString()).toBe("");
      expect(status.stdout.toString()).toStartWith("Demo shop app: ");
      const values = keys.items.flatMap((k: { translations: Record<string, { value: string }> }) => Object.values(k.translations).map((t) => t.value));
      expect(values.some((v: string) => /\{count, plural,/.test(v))).toBe(true);
      expect(values.some((v: string) => /\{gender, select,/.test(v))).toBe(true);
      expect(values.some((v: string) => /\{name\}/.test(v))).toBe(true);

      // The published release's files are on the CDN.
      const release = (await api.get(`/projects/${project.id}/releases/${releases.items[0].id}`)).body;
      const ptBr = release.languages.find((l: { code: string }) => l.code === "pt-BR");
      expect((await fetch(ptBr.download_urls.arb)).status).toBe(200);
      expect((await api.get(`/projects/${project.id}/tokens`)).body.items.map((t: { name: string }) => t.name)).toEqual(["Demo token"]);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("bound to 0.0.0.0, the start log names that address, not loopback's", async () => {
    const server = await startServer({ args: ["demo"], env: { ...NO_BOOTSTRAP, PHRASEBOOK_HOST: "0.0.0.0" } });
    try {
      const line = server.output().split("\n").find((l) => l.includes('"msg":"listening"'))!;
      const logged = JSON.parse(line);
      expect(logged.address).toBe(`0.0.0.0:${server.port}`);
      // Only the public addresses (the operator's setting) may name loopback here.
      expect(Object.entries(logged).filter(([k, v]) => !k.endsWith("_url") && String(v).includes("127.0.0.1"))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test("with PHRASEBOOK_ADMIN_EMAIL/PASSWORD set, the demo admin is that account and its password is not echoed", async () => {
    const server = await startServer({ args: ["demo"], env: { PHRASEBOOK_ADMIN_EMAIL: "ops@example.test", PHRASEBOOK_ADMIN_PASSWORD: "ops password 123" } });
    try {
      const out = await banner(server, "Try the public API");
      expect(field(out, "Log in as")).toBe("ops@example.test");
      expect(out).toContain("the value of PHRASEBOOK_ADMIN_PASSWORD");
      expect(out).not.toContain("ops password 123");
      await DashboardClient.loggedIn(server.url, "ops@example.test", "ops password 123");
    } finally {
      await server.stop();
    }
  });

  test("on a data dir that already holds data it adds nothing and says so", async () => {
    const dataDir = tempDir();
    try {
      const first = await startServer({ args: ["serve"], dataDir });
      const api = await DashboardClient.loggedIn(first.url);
      await api.project("Mine", "en");
      await first.stop();

      const second = await startServer({ args: ["demo"], dataDir });
      try {
        const out = await banner(second, "already holds data");
        expect(out).not.toContain("API token");
        const again = await DashboardClient.loggedIn(second.url);
        expect((await again.get("/projects")).body.items.map((p: { name: string }) => p.name)).toEqual(["Mine"]);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("with its port taken it seeds nothing and says so; a later run on a free port seeds the demo and prints the login", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const taken = Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response("someone else") });
    try {
      const env = { PATH: process.env.PATH ?? "", HOME: "/tmp", PHRASEBOOK_HOST: "127.0.0.1", PHRASEBOOK_PORT: String(port), PHRASEBOOK_DATA_DIR: dataDir, ...NO_BOOTSTRAP };
      const proc = Bun.spawn([...serverCommand(), "demo"], { env, cwd: dataDir, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ code, stderr }).toEqual({ code: 2, stderr: "phrasebook: the port is already in use (set PHRASEBOOK_PORT or --port)\n" });
      expect(stdout).not.toContain("Password");
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      taken.stop(true);
    }
    const server = await startServer({ args: ["demo"], dataDir, env: NO_BOOTSTRAP });
    try {
      const out = await banner(server, "Try the public API");
      await DashboardClient.loggedIn(server.url, "admin@example.com", field(out, "Password"));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
