/**
 * Single sign-on set up wrong, as an operator does it (docs/deploy.md "Single sign-on"): a
 * setting without the issuer, a URL with a space around it, an issuer that differs from the one
 * the provider's discovery names (the trailing slash of Keycloak's and Authentik's issuers), a
 * provider that does not answer. Each is named where an administrator looks (the start's one line,
 * the server's log), and a person is told only what they can act on. The real provider on
 * loopback (test/helpers/oidc-provider.ts), served under an issuer path as those providers are.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { loadSettings, SETTINGS } from "../../src/config/settings.ts";
import { checkProviderAtStart } from "../../src/accounts/sign-in/oidc-discovery.ts";
import { ORIGIN, testApp } from "../helpers/app.ts";
import type { TestProvider } from "../helpers/oidc-provider.ts";
import { freePort, serverCommand, startServer, tempDir } from "../helpers/server.ts";
import { capturingStdout } from "../helpers/stdout.ts";
import { eventually } from "../helpers/wait.ts";
import { CLIENT_SECRET, oidcEnv, outcome, people, providerFor, signIn } from "./oidc-world.ts";

const REALM = "/realms/test";
let provider: TestProvider;
beforeAll(async () => {
  provider = await providerFor(people(), { path: REALM });
});
afterAll(() => provider?.stop());

describe("settings that stop the start with one line naming them", () => {
  const others = SETTINGS.filter((s) => s.env.startsWith("PHRASEBOOK_OIDC_") && s.env !== "PHRASEBOOK_OIDC_ISSUER");

  test("every other PHRASEBOOK_OIDC_* setting without the issuer (the secret's value never echoed)", () => {
    expect(others.length).toBeGreaterThanOrEqual(9);
    for (const spec of others) {
      const value = spec.env === "PHRASEBOOK_OIDC_SESSION_HOURS" ? "8" : "some-value";
      expect(() => loadSettings({ [spec.env]: value }), spec.env).toThrow(`${spec.env}: is set, but PHRASEBOOK_OIDC_ISSUER is not: set the issuer to offer single sign-on, or remove this setting`);
      expect(() => loadSettings({}, { [spec.flag]: value }), spec.flag).toThrow(`${spec.env}: is set, but PHRASEBOOK_OIDC_ISSUER is not`);
      // Empty is unset.
      expect(loadSettings({ [spec.env]: "" }).oidcIssuer).toBeUndefined();
    }
    expect(() => loadSettings({ PHRASEBOOK_OIDC_CLIENT_SECRET: CLIENT_SECRET })).toThrow('PHRASEBOOK_OIDC_CLIENT_SECRET: is set, but PHRASEBOOK_OIDC_ISSUER is not: set the issuer to offer single sign-on, or remove this setting (got "[hidden]")');
  });

  test("a URL setting with a space, tab or newline around it is refused, not trimmed", () => {
    const urls: [string, string][] = [
      ["PHRASEBOOK_PUBLIC_URL", "https://phrasebook.example.test"],
      ["PHRASEBOOK_CDN_URL", "https://cdn.example.test"],
      ["PHRASEBOOK_OIDC_ISSUER", "https://idp.example.test/realms/x"],
      ["PHRASEBOOK_REPLICA_S3_ENDPOINT", "https://s3.example.test"],
    ];
    for (const [env, url] of urls) {
      const base = env === "PHRASEBOOK_OIDC_ISSUER" ? { PHRASEBOOK_OIDC_CLIENT_ID: "x" } : {};
      expect(loadSettings({ ...base, [env]: url })).toBeDefined();
      for (const spaced of [`${url} `, ` ${url}`, `${url}\t`, `${url}\n`]) {
        expect(() => loadSettings({ ...base, [env]: spaced }), JSON.stringify(spaced)).toThrow(`${env}: has spaces before or after the URL; remove them (got ${JSON.stringify(spaced)})`);
      }
    }
  });

  test("the executable stops with that one line, before opening anything", () => {
    const dataDir = tempDir();
    const run = Bun.spawnSync([...serverCommand(), "serve"], {
      env: { PATH: process.env.PATH ?? "", HOME: "/tmp", PHRASEBOOK_DATA_DIR: dataDir, PHRASEBOOK_PORT: "0", PHRASEBOOK_OIDC_CLIENT_ID: "phrasebook" },
      cwd: dataDir,
    });
    expect(run.exitCode).not.toBe(0);
    expect(readdirSync(dataDir)).toEqual([]);
    const said = (run.stdout.toString() + run.stderr.toString()).trim();
    expect(said).toBe('phrasebook: PHRASEBOOK_OIDC_CLIENT_ID: is set, but PHRASEBOOK_OIDC_ISSUER is not: set the issuer to offer single sign-on, or remove this setting (got "phrasebook")');
  });
});

describe("an issuer that differs from the provider's by a trailing slash", () => {
  const slashed = () => `${provider.issuer}/`;

  test("the person is told single sign-on is misconfigured, not that the provider is unreachable; the log has both issuers and the hint", async () => {
    const t = await testApp({ env: oidcEnv(provider, { PHRASEBOOK_OIDC_ISSUER: slashed() }) });
    try {
      const { result: res, lines } = await capturingStdout(() => t.fetch("/dashboard/api/oidc/start"));
      const out = await outcome(res);
      expect(out.location).toBe(`${ORIGIN}/dashboard/login?sso_error=misconfigured`);
      expect(out.ssoError).toBe("Single sign-on is misconfigured; an administrator can see why in the server log");
      const warning = lines.find((l) => l.level === "warn" && String(l.msg).startsWith("single sign-on: misconfigured"))!;
      expect(warning).toMatchObject({ configured_issuer: slashed(), discovered_issuer: provider.issuer });
      expect(warning.msg).toContain(`PHRASEBOOK_OIDC_ISSUER is "${slashed()}", but the provider's discovery document (${provider.issuer}/.well-known/openid-configuration) names its issuer "${provider.issuer}"`);
      expect(warning.msg).toContain(`They differ only by the trailing slash: set PHRASEBOOK_OIDC_ISSUER to "${provider.issuer}" exactly, without it.`);
      expect(t.query("SELECT count(*) AS n FROM users")).toEqual([{ n: 1 }]);
    } finally {
      await t.close();
    }
  });

  test("the same issuer, as discovery names it, signs in (the provider under its path works)", async () => {
    const t = await testApp({ env: oidcEnv(provider) });
    try {
      expect((await signIn(t, "bob")).session).not.toBeNull();
    } finally {
      await t.close();
    }
  });

  test("at start, the mistake is a warning in the log naming both issuers, and the server starts and serves", async () => {
    const port = await freePort();
    const server = await startServer({ port, env: oidcEnv(provider, { PHRASEBOOK_OIDC_ISSUER: slashed() }) });
    try {
      await eventually(() => server.output().includes('"level":"warn","msg":"single sign-on: misconfigured (at start)'), { what: () => server.output() });
      const line = JSON.parse(server.output().split("\n").find((l) => l.includes("single sign-on: misconfigured (at start)"))!);
      expect(line).toMatchObject({ configured_issuer: slashed(), discovered_issuer: provider.issuer });
      expect(line.msg).toContain("They differ only by the trailing slash");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.output()).not.toContain(CLIENT_SECRET);
    } finally {
      await server.stop();
    }
  });
});

describe("a provider that does not answer", () => {
  test("at start: a warning naming the cause; a sign-in is told the provider could not be reached", async () => {
    const closed = await freePort();
    const settings = { oidcIssuer: `http://127.0.0.1:${closed}${REALM}`, oidcClientId: "phrasebook", oidcClientSecret: CLIENT_SECRET };
    const { lines } = await capturingStdout(() => checkProviderAtStart(settings, fetch));
    const warning = lines.find((l) => l.level === "warn")!;
    expect(warning.msg).toStartWith(`single sign-on: the provider could not be reached (at start): the provider could not be reached at http://127.0.0.1:${closed}${REALM}/.well-known/openid-configuration (`);

    const t = await testApp({ env: oidcEnv(provider, { PHRASEBOOK_OIDC_ISSUER: settings.oidcIssuer }) });
    try {
      const res = await t.fetch("/dashboard/api/oidc/start");
      expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard/login?sso_error=unreachable`);
    } finally {
      await t.close();
    }
  });

  test("an issuer whose discovery URL the provider does not serve (a wrong realm) is misconfigured, naming the URL and the status", async () => {
    const wrong = provider.issuer.replace(REALM, "/realms/other");
    const { lines } = await capturingStdout(() => checkProviderAtStart({ oidcIssuer: wrong, oidcClientId: "phrasebook", oidcClientSecret: undefined }, fetch));
    const warning = lines.find((l) => l.level === "warn")!;
    expect(warning.msg).toContain(`single sign-on: misconfigured (at start): the provider answered 404 for ${wrong}/.well-known/openid-configuration`);
  });
});
