/**
 * Single sign-on settings set up wrong, as an operator does it (docs/deploy.md "Single sign-on"):
 * a setting without the issuer, a URL with a space around it. Each stops the start with one line
 * naming it.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { loadSettings, SETTINGS } from "../../src/config/settings.ts";
import { serverCommand, tempDir } from "../helpers/server.ts";
import { CLIENT_SECRET } from "./oidc-world.ts";

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
