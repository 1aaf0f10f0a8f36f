/**
 * The key grid with every language on screen, measured directly: the page loaded once, then five
 * loads under Chromium's CPU profiler, each from navigation to the grid drawn (the page's `keys-grid`
 * mark), with the functions that took the time. 10,000 keys x 30 languages through the import API.
 * Usage: PHRASEBOOK_BIN=<build> CHROMIUM_PATH=$(command -v chromium) bun bench/lib/grid-probe.ts
 */
import { launchBrowser, openPage } from "../../test/dashboard/browser.ts";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer } from "../../test/helpers/server.ts";
import { seedEditorProject } from "./editor-seed.ts";
const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
const browser = await launchBrowser();
try {
  const admin = await DashboardClient.loggedIn(server.url);
  const seeded = await seedEditorProject(admin, 10000, 30);
  await admin.put(`/projects/${seeded.pid}/editor-preferences`, { languages: seeded.codes });
  const cookie = admin.cookie.split(";")[0]!.split("=");
  const tab = await openPage(browser, server);
  await tab.context.addCookies([{ name: cookie[0]!, value: cookie.slice(1).join("="), url: server.url }]);
  const url = `${server.url}/dashboard/projects/${seeded.pid}/keys`;
  const load = async () => { await tab.page.goto(url); await tab.page.waitForFunction(() => performance.getEntriesByName("keys-grid").length > 0, null, { timeout: 30000 }); return tab.page.evaluate(() => ({ grid: performance.getEntriesByName("keys-grid")[0]!.startTime, dcl: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd, rows: document.querySelectorAll("tr").length, cells: document.querySelectorAll("td").length, nodes: document.querySelectorAll("*").length })); };
  await load();
  const cdp = await tab.context.newCDPSession(tab.page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  const results: any[] = [];
  await cdp.send("Profiler.start");
  for (let i = 0; i < 5; i++) results.push(await load());
  const { profile } = await cdp.send("Profiler.stop");
  console.log(JSON.stringify(results));
  const self = new Map<string, number>(); const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const dt = profile.timeDeltas!; profile.samples!.forEach((s: number, i: number) => { const n: any = nodes.get(s); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + dt[i]!); });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log((v / 1000 / 5).toFixed(1).padStart(7), "ms/load", k);
  console.log("total", (total / 1000 / 5).toFixed(0), "ms/load");
} finally { await browser.close(); await server.stop(); }
