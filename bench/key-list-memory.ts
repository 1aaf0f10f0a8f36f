/**
 * The key list's reply at its largest (docs/dashboard-api.md "Keys"): a project of 50 languages
 * whose 50 keys hold 100 KB values in every language, asked for its default page (50 keys, every
 * language) by the compiled server. Prints the server's resident memory before, and its peak
 * (VmHWM) after each of a few requests, from /proc. Run: PHRASEBOOK_BIN=dist/phrasebook bun bench/key-list-memory.ts
 */
import { readFileSync } from "node:fs";
import { DashboardClient } from "../test/helpers/dashboard-client.ts";
import { startServer } from "../test/helpers/server.ts";

const LANGUAGES = Number(process.env.LANGUAGES ?? 50);
const KEYS = Number(process.env.KEYS ?? 50);
const VALUE_CHARS = Number(process.env.VALUE_CHARS ?? 100_000);

const CODES = "de fr es it pt nl sv da fi nb pl cs sk hu ro bg el tr ru uk ar he fa hi bn ta te th vi id ms ja ko zh et lv lt sl hr sr bs mk sq is ga cy eu ca gl".split(" ");

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
try {
  const admin = await DashboardClient.loggedIn(server.url);
  const codes = CODES.slice(0, LANGUAGES - 1);
  const pid = await admin.project("Wide", "en", codes);
  for (const code of ["en", ...codes]) {
    const content = JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, k) => [`key.${String(k).padStart(3, "0")}`, `${code} ${k} `.padEnd(VALUE_CHARS, "x")])));
    const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content });
    if (r.status !== 200) throw new Error(`import ${code}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  // Settle, so the peak below is the list's and not the imports'.
  await Bun.sleep(2000);
  const before = memoryOf(server.proc.pid);
  console.log(`${LANGUAGES} languages x ${KEYS} keys x ${VALUE_CHARS} characters; server before: rss ${before.rss} MB, peak so far ${before.peak} MB`);
  for (const [name, path] of [
    ["default page", `/projects/${pid}/keys`],
    ["default page again", `/projects/${pid}/keys`],
    ["page_size=500", `/projects/${pid}/keys?page_size=500`],
    ["languages=en,de (9.5 MB of values)", `/projects/${pid}/keys?languages=en,de`],
    // Just under the page budget (8 MB): the most one page may make the server hold.
    ["page_size=40, 2 languages (7.6 MB of values)", `/projects/${pid}/keys?languages=en,de&page_size=40`],
    ["page_size=1, every language (4.8 MB)", `/projects/${pid}/keys?page_size=1`],
  ] as const) {
    // /healthz asked again as soon as it answers, meanwhile: its slowest answer is how long the
    // list held the server's thread.
    let listing = true;
    let slowestHealthMs = 0;
    const probe = (async () => {
      while (listing) {
        const t0 = performance.now();
        await (await fetch(server.url + "/healthz")).text();
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - t0);
        await Bun.sleep(5);
      }
    })();
    const started = performance.now();
    const res = await fetch(server.url + "/dashboard/api" + path, { headers: { cookie: admin.cookie } });
    const body = await res.arrayBuffer();
    const ms = Math.round(performance.now() - started);
    listing = false;
    await probe;
    const m = memoryOf(server.proc.pid);
    const items = res.status === 200 ? (JSON.parse(new TextDecoder().decode(body)).items as unknown[]).length : 0;
    console.log(`${name}: ${res.status}, ${(body.byteLength / 1024 / 1024).toFixed(1)} MB reply, ${items} keys, ${ms} ms, slowest /healthz meanwhile ${Math.round(slowestHealthMs)} ms; server rss ${m.rss} MB, peak ${m.peak} MB`);
  }
} finally {
  await server.stop();
}
