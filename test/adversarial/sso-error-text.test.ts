/**
 * The login page showed the text of `?sso_error=` (escaped, at most 300 characters): anyone could
 * send a link to this server's real login page carrying their own sentence ("Your account is
 * locked; call ..."), and the page showed it as the server's word. A refused single sign-on now
 * comes back with a reason code only, and the page shows its own sentence for each code, a generic
 * one for a code it does not know, never text from its URL (docs/dashboard.md "Login",
 * docs/dashboard-api.md "Single sign-on"). The server's side with the real provider, the page's in
 * Chromium, both in this process.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { listen, type Listening } from "../helpers/listen.ts";
import { signInAt, type TestProvider } from "../helpers/oidc-provider.ts";
import type { TestServer } from "../helpers/server.ts";
import { callback, oidcEnv, people, providerFor, start } from "../accounts/oidc-world.ts";
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, openPage, type OpenPage, type TestBrowser } from "../dashboard/browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const ATTACKER = "Your account is locked. Call +1 555 0100 to unlock it";
/** The page's sentence for a code it does not know (accounts/sign-in/refusals.ts), written out: the page must show these words. */
const GENERIC = "Single sign-on did not sign you in; please try again.";
const SENTENCES: Record<string, string> = {
  unverified: "Your email address is not verified by the identity provider.",
  misconfigured: "Single sign-on is misconfigured; an administrator can see why in the server log",
  expired: "This sign-in has expired or was already used; please sign in again.",
};

let provider: TestProvider;
let t: TestApp;
beforeAll(async () => {
  provider = await providerFor(people());
  t = await testApp({ env: oidcEnv(provider) });
});
afterAll(async () => {
  await t?.close();
  await provider?.stop();
});

describe("the callback sends back a reason code, never a sentence", () => {
  test("every refusal's Location carries one code of the page's table, and nothing else", async () => {
    const locations: string[] = [];
    // Refused by the person's claims, the state, the provider, and no sign-in under way.
    for (const who of ["eve", "mallory", "carl"]) {
      const s = await start(t);
      locations.push((await callback(t, await signInAt(s.authorizationUrl.href, who), s.cookie)).headers.get("location")!);
    }
    const s = await start(t);
    const back = await signInAt(s.authorizationUrl.href, "bob");
    const forged = new URL(back);
    forged.searchParams.set("state", ATTACKER);
    locations.push((await callback(t, forged, s.cookie)).headers.get("location")!);
    const cancelled = new URL(back);
    cancelled.search = `?error=access_denied&error_description=${encodeURIComponent(ATTACKER)}&state=${back.searchParams.get("state")}`;
    locations.push((await callback(t, cancelled, s.cookie)).headers.get("location")!);
    locations.push((await t.fetch(`/dashboard/api/oidc/callback?code=x&state=y&error=${encodeURIComponent(ATTACKER)}`)).headers.get("location")!);
    const codes = locations.map((l) => {
      const url = new URL(l);
      expect(url.origin + url.pathname).toBe(`${ORIGIN}/dashboard/login`);
      expect([...url.searchParams.keys()]).toEqual(["sso_error"]);
      return url.searchParams.get("sso_error")!;
    });
    expect(codes).toEqual(["unverified", "domain", "group", "state", "provider", "expired"]);
  });
});

describe("the login page shows only its own sentences", () => {
  let browser: TestBrowser;
  let server: Listening;
  let tab: OpenPage;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = listen(t);
    tab = await openPage(browser, { url: server.url } as TestServer);
  });
  afterAll(async () => {
    await tab?.context.close();
    await server?.stop();
    await browser?.close();
  });

  const alertFor = async (query: string): Promise<{ alert: string; body: string }> => {
    await tab.page.goto(`/dashboard/login?${query}`);
    const alert = tab.page.getByRole("alert");
    await alert.waitFor();
    return { alert: (await alert.textContent())!, body: (await tab.page.locator("body").textContent())! };
  };

  test("a sentence of an attacker's in ?sso_error= is not shown: the page's generic sentence is", async () => {
    for (const hostile of [ATTACKER, `<b>${ATTACKER}</b>`, "__proto__", "constructor", "UNVERIFIED"]) {
      const { alert, body } = await alertFor(`sso_error=${encodeURIComponent(hostile)}`);
      expect(alert).toBe(GENERIC);
      expect(body).not.toContain(ATTACKER);
    }
  });

  test("each known code shows its own sentence", async () => {
    for (const [code, sentence] of Object.entries(SENTENCES)) {
      expect((await alertFor(`sso_error=${code}`)).alert).toBe(sentence);
    }
    expect(tab.problems).toEqual([]);
  });
});
