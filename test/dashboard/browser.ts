/**
 * Browser tests drive Debian's Chromium through playwright-core (no browser download). The flags
 * keep Chromium off the network: this machine's closed network refuses its background traffic.
 */
import { afterAll, afterEach, beforeAll } from "bun:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type StartOptions, type TestServer } from "../helpers/server.ts";
import { eventually as waitUntil } from "../helpers/wait.ts";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };
/** A browser test walks through several pages on a shared 2-core machine. */
export const BROWSER_TEST_TIMEOUT_MS = 60_000;
/** Well under a test's own timeout, so a missing element fails with playwright's clear message. */
export const ACTION_TIMEOUT_MS = 10_000;
/**
 * Loading a page (a navigation to its load event) waits longer: the reference at /v1/docs parses a
 * script of more than 1 MB, which took over 10 s on this 2-core machine at a load average of 10.
 * A limit of waiting, not a measure of speed.
 */
export const NAVIGATION_TIMEOUT_MS = 30_000;

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** playwright's launch() gives every browser a new empty profile dir (its --user-data-dir). */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, failed requests and requests that left the server's origin. */
  problems: string[];
}

/** A fresh context (own cookies) and page; records anything a product page should never do. */
export async function openPage(b: TestBrowser, server: TestServer, viewport = DESKTOP): Promise<OpenPage> {
  const context = await b.browser.newContext({ viewport, baseURL: server.url });
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(server.url) && !url.startsWith("data:") && !url.startsWith("blob:")) problems.push(`left the origin: ${url}`);
  });
  return { context, page, problems };
}

export async function logIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  await page.goto("/dashboard/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Projects" }).waitFor();
}

/** The page fits its viewport: nothing forces a horizontal scrollbar on the whole document. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The grid's editor for one key in one language. */
export function gridCell(page: Page, code: string, key: string) {
  return page.getByRole("textbox", { name: `${code} translation of ${key}`, exact: true });
}

export interface Fixture {
  server: TestServer;
  browser: TestBrowser;
  /** The bootstrap admin's API client, for arranging data quickly. */
  api: DashboardClient;
  /** A new browser context, logged in as the admin (or the given user). */
  page(viewport?: { width: number; height: number }, email?: string, password?: string): Promise<OpenPage>;
}

/** One server and one Chromium per test file; every test gets its own context (cookies). */
export function useDashboard(options: StartOptions = {}): Fixture {
  const fixture = {} as Fixture;
  const opened: OpenPage[] = [];
  beforeAll(async () => {
    fixture.server = await startServer(options);
    fixture.browser = await launchBrowser();
    fixture.api = await DashboardClient.loggedIn(fixture.server.url);
    fixture.page = async (viewport = DESKTOP, email?: string, password?: string) => {
      const tab = await openPage(fixture.browser, fixture.server, viewport);
      opened.push(tab);
      await logIn(tab.page, email, password);
      return tab;
    };
  });
  afterEach(async () => {
    for (const tab of opened.splice(0)) await tab.context.close();
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.server?.stop();
  });
  return fixture;
}

/** Polls until `check` returns a value other than undefined (a UI action's request may still be on its way). */
export function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = ACTION_TIMEOUT_MS): Promise<T> {
  return waitUntil(check, { timeoutMs, intervalMs: 50 });
}

/** Waits until some input on the page holds exactly this value. */
export async function inputWithValue(page: Page, value: string): Promise<void> {
  await page.waitForFunction((v) => [...document.querySelectorAll("input")].some((i) => i.value === v), value);
}
