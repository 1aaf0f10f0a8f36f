/**
 * Hand-made DOM helpers or a component library for the pages (docs/decisions.md "Pages as
 * components"): the translate page as it is (src/dashboard/client/pages/translate.ts with
 * translate/) against the same page ported to Preact with htm (bench/component-port/
 * translate-preact.ts). For each: the whole dashboard script's size (minified; gzip; brotli at
 * quality 11, as served), the page's lines, and in Chromium the time from navigation to the first
 * key's card painted (a fresh context each round, so the script is downloaded and compiled every
 * time), medians over BENCH_ROUNDS rounds (default 15), the two taken in turn.
 *
 *   tools/node_modules/.bin/bun bench/component-port.bench.ts
 *
 * Preact and htm are installed into a temp dir with npm for the run: the project does not depend
 * on them. The server runs from source with its own data dir; the machine is shared, so read the
 * two columns against each other, not as absolute figures.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { DashboardClient } from "../test/helpers/dashboard-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ROOT, startServer, tempDir } from "../test/helpers/server.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const KEYS = 60;

/** src/ copied with the Preact page in place of the hand-made one, and its node_modules beside it. */
function preactTree(): string {
  const dir = tempDir("phrasebook-port-");
  const npm = Bun.spawnSync(["npm", "install", "--prefix", join(dir, "deps"), "--no-audit", "--no-fund", "--loglevel=error", "preact@11.2.0", "htm@3.1.1"], { stdout: "inherit", stderr: "inherit" });
  if (npm.exitCode !== 0) throw new Error("npm install preact htm failed");
  cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
  cpSync(join(ROOT, "bench/component-port/translate-preact.ts"), join(dir, "src/dashboard/client/pages/translate.ts"));
  mkdirSync(join(dir, "node_modules"));
  for (const name of readdirSync(join(ROOT, "node_modules"))) if (!name.startsWith(".")) symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name));
  for (const name of ["preact", "htm"]) symlinkSync(join(dir, "deps/node_modules", name), join(dir, "node_modules", name));
  return dir;
}

async function bundle(entry: string): Promise<string> {
  const out = await Bun.build({ entrypoints: [entry], target: "browser", format: "esm", minify: true });
  if (!out.success) throw new Error(out.logs.join("\n"));
  return await out.outputs[0]!.text();
}

function sizes(js: string) {
  const bytes = Buffer.from(js);
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const lines = (...files: string[]) => files.reduce((n, f) => n + readFileSync(f, "utf8").split("\n").length - (readFileSync(f, "utf8").endsWith("\n") ? 1 : 0), 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const tree = preactTree();
const scripts = {
  "hand-made": await bundle(join(ROOT, "src/dashboard/client/main.ts")),
  preact: await bundle(join(tree, "src/dashboard/client/main.ts")),
};
const client = join(ROOT, "src/dashboard/client");
const pageLines = {
  "hand-made": lines(join(client, "pages/translate.ts"), join(client, "translate/key-card.ts")),
  preact: lines(join(ROOT, "bench/component-port/translate-preact.ts")),
};

const server = await startServer();
const api = await DashboardClient.loggedIn(server.url);
const pid = await api.project("Bench", "en", ["de"]);
for (let i = 0; i < KEYS; i++) await api.key(pid, `screen.k${String(i).padStart(3, "0")}`, { en: `Hello {name}, you have {count, plural, one {# item} other {# items}} (${i})` }, "On the home screen");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const login = await browser.newContext({ baseURL: server.url });
const lp = await login.newPage();
await lp.goto("/dashboard/login");
await lp.getByLabel("Email").fill(ADMIN_EMAIL);
await lp.getByLabel("Password").fill(ADMIN_PASSWORD);
await lp.getByRole("button", { name: "Log in" }).click();
await lp.getByRole("heading", { name: "Projects" }).waitFor();
const storageState = await login.storageState();
await login.close();

const painted: Record<string, number[]> = { "hand-made": [], preact: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of (round % 2 ? ["preact", "hand-made"] : ["hand-made", "preact"]) as (keyof typeof scripts)[]) {
    const context = await browser.newContext({ baseURL: server.url, storageState, viewport: { width: 1280, height: 860 } });
    await context.route(/\/dashboard\/assets\/app\.[0-9a-f]+\.js$/, (route) => route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: scripts[variant] }));
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(".translate.card .run")) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => ((window as any).__painted = performance.now())));
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=missing`);
    await page.waitForFunction(() => (window as any).__painted !== undefined, null, { timeout: 30_000 });
    painted[variant]!.push(await page.evaluate(() => (window as any).__painted as number));
    await context.close();
  }
}
await browser.close();
await server.stop();
rmSync(tree, { recursive: true, force: true });

const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const result = Object.fromEntries(
  (Object.keys(scripts) as (keyof typeof scripts)[]).map((v) => [v, { ...sizes(scripts[v]), page_lines: pageLines[v], painted_ms_median: Math.round(median(painted[v]!)), painted_ms: painted[v]!.map(Math.round) }]),
);
console.log(JSON.stringify({ rounds: ROUNDS, keys: KEYS, load_after: load, ...result }, null, 2));
