/**
 * Browser tests drive Debian's Chromium through playwright-core (no browser download). The flags
 * keep Chromium off the network: this machine's closed network refuses its background traffic.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from "../helpers/server.ts";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };
/** Well under bun test's own timeout, so a missing element fails with playwright's clear message. */
export const ACTION_TIMEOUT_MS = 10_000;

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
