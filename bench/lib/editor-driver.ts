/**
 * Editor benchmark driver (docs/dashboard.md "Speed"; product §8 point 6): a project of KEYS keys x
 * LANGS languages in the real server (PHRASEBOOK_BIN, else source), then Chromium times, per round:
 *
 * - the key grid's first page, from navigation start: in a fresh browser context (nothing cached)
 *   and again in the same context (the script and stylesheet cached, as on every visit after the
 *   first), with the user's chosen languages (the default: the base and three more) and, as the
 *   comparison, with all LANGS chosen (what the grid showed before languages could be chosen);
 * - a filter (missing, problems, back to all) and a search (a new term each time, combined with a
 *   filter once), from the click or the Enter key to the grid drawn with the answer.
 *
 * "Drawn" is the page's `keys-grid` performance mark (set right after the rows are in the DOM) and
 * "painted" the end of the next animation frame after it. One JSON line per measurement.
 */
import { join } from "node:path";
import { launchBrowser, openPage } from "../../test/dashboard/browser.ts";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir } from "../../test/helpers/server.ts";
import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { seedEditorProject } from "./editor-seed.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const LANGS = Number(process.env.BENCH_LANGS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CPU = process.env.BENCH_SERVER_CPU;
const SEARCHES = ["shipped", "label_0999", "nothing-like-this", "order was", "payment address", "screen17.section", "again later", "fr: your"];

const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));

/** Milliseconds from navigation start to the grid drawn, and painted. */
async function firstPage(page: Page, url: string): Promise<{ drawn: number; painted: number }> {
  await page.goto(url);
  return page.evaluate(
    () =>
      new Promise<{ drawn: number; painted: number }>((resolve) => {
        const done = (drawn: number) => requestAnimationFrame(() => setTimeout(() => resolve({ drawn, painted: performance.now() })));
        const mark = performance.getEntriesByName("keys-grid")[0];
        if (mark) return done(mark.startTime);
        const observer = new PerformanceObserver((list) => {
          const found = list.getEntries().find((e) => e.name === "keys-grid");
          if (found) {
            observer.disconnect();
            done(found.startTime);
          }
        });
        observer.observe({ type: "mark" });
      }),
  );
}

/** A person's pause between two clicks: the counts and progress fetched after the grid are in by then. */
const THINK_MS = 500;

/** Milliseconds from `act` (run in the page, after a pause) to the grid drawn with the answer, and painted. */
async function change(page: Page, act: string, arg: string): Promise<{ drawn: number; painted: number }> {
  await Bun.sleep(THINK_MS);
  return page.evaluate(
    ([act, arg]) =>
      new Promise<{ drawn: number; painted: number }>((resolve) => {
        let t0 = 0;
        const observer = new PerformanceObserver((list) => {
          const found = list.getEntries().find((e) => e.name === "keys-grid");
          if (!found) return;
          observer.disconnect();
          const drawn = found.startTime - t0;
          requestAnimationFrame(() => setTimeout(() => resolve({ drawn, painted: performance.now() - t0 })));
        });
        observer.observe({ type: "mark" });
        t0 = performance.now();
        if (act === "filter") document.querySelector<HTMLInputElement>(`.status-filter input[value="${arg}"]`)!.click();
        else {
          const box = document.querySelector<HTMLInputElement>('input[type="search"][name="search"]')!;
          box.value = arg;
          box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
        }
      }),
    [act, arg] as const,
  );
}

const dataDir = tempDir("phrasebook-bench-editor-");
const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
if (CPU) Bun.spawnSync(["taskset", "-a", "-p", "-c", CPU, String(server.proc.pid)]);
const browser = await launchBrowser();
try {
  const admin = await DashboardClient.loggedIn(server.url);
  const seeded = await seedEditorProject(admin, KEYS, LANGS);
  emit({ seeded: true, keys: KEYS, languages: LANGS, seed_seconds: Number(seeded.seconds.toFixed(1)) });
  const url = `/dashboard/projects/${seeded.pid}/keys`;
  const cookie = admin.cookie.split(";")[0]!.split("=");
  const shown = (await admin.get(`/projects/${seeded.pid}/editor-preferences`)).body.languages as string[];
  const all = seeded.codes;
  for (const [chosen, columns] of [["default", shown], ["all", all]] as const) {
    // The admin's own choice, saved as the language picker would.
    await admin.put(`/projects/${seeded.pid}/editor-preferences`, { languages: columns });
    const sizes = await admin.get(`/projects/${seeded.pid}/keys?page=1&page_size=50&languages=${columns.join(",")}`);
    emit({ payload: chosen, columns: columns.length, bytes: JSON.stringify(sizes.body).length });
    for (let round = 1; round <= ROUNDS; round++) {
      const tab = await openPage(browser, server);
      await tab.context.addCookies([{ name: cookie[0]!, value: cookie.slice(1).join("="), url: server.url }]);
      const cold = await firstPage(tab.page, url);
      emit({ round, what: "first page, nothing cached", chosen, columns: columns.length, ...cold });
      await Bun.sleep(THINK_MS);
      const warm = await firstPage(tab.page, url);
      emit({ round, what: "first page, script cached", chosen, columns: columns.length, ...warm });
      if (chosen === "default") {
        for (const status of ["missing", "problems", ""]) emit({ round, what: `filter ${status || "all"}`, ...(await change(tab.page, "filter", status)) });
        emit({ round, what: "search", term: SEARCHES[round % SEARCHES.length], ...(await change(tab.page, "search", SEARCHES[round % SEARCHES.length]!)) });
        emit({ round, what: "search", term: SEARCHES[(round + 4) % SEARCHES.length], ...(await change(tab.page, "search", SEARCHES[(round + 4) % SEARCHES.length]!)) });
        emit({ round, what: "filter missing with a search", ...(await change(tab.page, "filter", "missing")) });
        await change(tab.page, "search", "");
        await change(tab.page, "filter", "");
      }
      if (tab.problems.length) throw new Error(`the page misbehaved: ${tab.problems.join("; ")}`);
      await tab.context.close();
    }
  }
  await admin.put(`/projects/${seeded.pid}/editor-preferences`, { languages: shown });
} finally {
  await browser.close();
  await server.stop();
  rmSync(join(dataDir), { recursive: true, force: true });
}
