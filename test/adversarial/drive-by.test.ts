/**
 * Cross-site forms, in a real browser: a page on another site that a victim opens submits forms
 * to Phrasebook by itself. When bodies were not JSON only, an HTML form could run the first-run
 * setup of a fresh server (the attacker becomes its admin) or sign the victim into the attacker's
 * account (login CSRF). Chromium (Playwright) opens the attacker's page, served from another
 * origin; the page posts urlencoded, multipart and text/plain forms (the last shaped to read as
 * JSON) and a no-cors fetch. Nothing may come of any of them (docs/dashboard-api.md "Conventions",
 * docs/deploy.md "Security notes").
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, type TestBrowser } from "../dashboard/browser.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The attacker's site: one page per attack, on its own origin (localhost, another port). */
function attackerSite(target: string, fields: Record<string, string>) {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input name="${name}" value="${value}">`)
    .join("");
  // text/plain sends `name=value`: a name of `{"email":...,"x":"` and a value of `"}` read as JSON.
  const json = JSON.stringify({ ...fields, x: "" }).slice(0, -2);
  const pages: Record<string, string> = {
    urlencoded: `<form method="POST" action="${target}">${inputs}</form><script>document.forms[0].submit()</script>`,
    multipart: `<form method="POST" enctype="multipart/form-data" action="${target}">${inputs}</form><script>document.forms[0].submit()</script>`,
    "text-plain": `<form method="POST" enctype="text/plain" action="${target}"><input name='${json}' value='"}'></form><script>document.forms[0].submit()</script>`,
    fetch: `<script>fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(JSON.stringify(fields))} }).finally(() => { document.title = "sent" })</script>`,
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => new Response(`<!doctype html><title>cute cats</title>${pages[new URL(req.url).pathname.slice(1)] ?? ""}`, { headers: { "content-type": "text/html" } }),
  });
  return { origin: `http://localhost:${server.port}`, stop: () => server.stop(true) };
}

/** Opens each attack page in one browser context and waits until its request has gone out. */
async function visitAll(origin: string, target: string) {
  const context = await browser.browser.newContext();
  const page = await context.newPage();
  const answers: number[] = [];
  page.on("response", (r) => {
    if (r.url() === target) answers.push(r.status());
  });
  for (const attack of ["urlencoded", "multipart", "text-plain"]) {
    const sent = page.waitForResponse((r) => r.url() === target);
    await page.goto(`${origin}/${attack}`);
    await sent;
  }
  await page.goto(`${origin}/fetch`);
  await page.waitForFunction(() => document.title === "sent");
  return { context, answers };
}

describe("dashboard-api.md Conventions and Authentication rule 3: a page on another site cannot drive Phrasebook with forms (real browser)", () => {
  test("the first-run setup: no admin is created by any form or no-cors fetch, and setup is still needed", async () => {
    const server: TestServer = await startServer({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "", PHRASEBOOK_LOG_REQUESTS: "false" } });
    const target = `${server.url}/dashboard/api/setup`;
    const site = attackerSite(target, { email: "attacker@evil.example", name: "Attacker", password: "attacker-password" });
    try {
      const { context, answers } = await visitAll(site.origin, target);
      await context.close();
      expect(answers.length).toBeGreaterThanOrEqual(3); // the no-cors fetch's answer is opaque to the page
      for (const status of answers) expect([403, 415]).toContain(status);
      expect(server.query("SELECT email FROM users")).toEqual([]);
      expect(await (await fetch(`${server.url}/dashboard/api/setup`)).json()).toEqual({ needed: true });
    } finally {
      site.stop();
      await server.stop();
    }
  });

  test("login CSRF: no form signs the victim's browser into the attacker's account", async () => {
    const server: TestServer = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    const target = `${server.url}/dashboard/api/login`;
    // The attacker's own account (here the bootstrap admin, whose password the attacker knows).
    const site = attackerSite(target, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    try {
      const { context, answers } = await visitAll(site.origin, target);
      for (const status of answers) expect([403, 415]).toContain(status);
      expect((await context.cookies(server.url)).filter((c) => c.name === "phrasebook_session")).toEqual([]);
      expect(server.query("SELECT 1 FROM sessions")).toEqual([]);
      await context.close();
    } finally {
      site.stop();
      await server.stop();
    }
  });
});
