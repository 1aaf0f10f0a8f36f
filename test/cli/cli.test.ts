/**
 * The command line (product §1), run as the executable is: exit codes, one-line errors, settings
 * checked before the start, `user create`. What the app then does with the data dir is checked
 * in-process.
 */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { testApp } from "../helpers/app.ts";
import { serverCommand, tempDir } from "../helpers/server.ts";

/** Runs the CLI to completion and returns its exit code and output. */
async function cli(args: string[], env: Record<string, string> = {}, stdin?: string) {
  const dataDir = env.PHRASEBOOK_DATA_DIR ?? tempDir();
  const proc = Bun.spawn([...serverCommand(), ...args], {
    env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: dataDir, ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, dataDir };
}

describe("product §1: the command line", () => {
  test("version prints the version", async () => {
    const r = await cli(["version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^phrasebook \d+\.\d+\.\d+\n$/);
  });

  test("--help lists every command and every setting", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    for (const word of ["serve", "demo", "user create", "backup", "restore", "PHRASEBOOK_REPLICA_URL", "PHRASEBOOK_LITESTREAM", "PHRASEBOOK_HOST", "PHRASEBOOK_PORT", "PHRASEBOOK_DATA_DIR", "PHRASEBOOK_PUBLIC_URL",
      "PHRASEBOOK_CDN_URL", "PHRASEBOOK_ADMIN_EMAIL", "PHRASEBOOK_RATE_LIMIT", "PHRASEBOOK_RATE_WINDOW", "PHRASEBOOK_API_CACHE_TTL",
      "PHRASEBOOK_CDN_CACHE_MB", "PHRASEBOOK_WEBHOOK_RETRY_DELAYS", "PHRASEBOOK_WEBHOOK_TIMEOUT", "PHRASEBOOK_WEBHOOK_ALLOW_CIDRS"]) {
      expect(r.stdout).toContain(word);
    }
  });

  test("an unknown command or option is one clear line, exit 1 (bad usage, product §6)", async () => {
    const a = await cli(["frobnicate"]);
    expect(a.code).toBe(1);
    expect(a.stderr).toBe('phrasebook: unknown command "frobnicate" (see phrasebook --help)\n');
    const b = await cli(["serve", "--prot", "9"]);
    expect(b.code).toBe(1);
    expect(b.stderr).toBe("phrasebook: unknown option --prot (see phrasebook --help)\n");
  });

  const badSettings: [string, string, string][] = [
    ["PHRASEBOOK_PORT", "eighty", "PHRASEBOOK_PORT: must be a whole number from 0 to 65535"],
    ["PHRASEBOOK_PORT", "70000", "PHRASEBOOK_PORT"],
    ["PHRASEBOOK_PUBLIC_URL", "not a url", "PHRASEBOOK_PUBLIC_URL: must be an absolute http(s) URL"],
    ["PHRASEBOOK_CDN_URL", "ftp://x", "PHRASEBOOK_CDN_URL"],
    ["PHRASEBOOK_RATE_LIMIT", "0", "PHRASEBOOK_RATE_LIMIT"],
    ["PHRASEBOOK_RATE_WINDOW", "-5", "PHRASEBOOK_RATE_WINDOW"],
    ["PHRASEBOOK_API_CACHE_TTL", "1.5", "PHRASEBOOK_API_CACHE_TTL"],
    ["PHRASEBOOK_CDN_CACHE_MB", "lots", "PHRASEBOOK_CDN_CACHE_MB"],
    ["PHRASEBOOK_WEBHOOK_RETRY_DELAYS", "1,2,3", "PHRASEBOOK_WEBHOOK_RETRY_DELAYS: must be 4 comma-separated gaps"],
    ["PHRASEBOOK_WEBHOOK_RETRY_DELAYS", "1,2,x,4", "PHRASEBOOK_WEBHOOK_RETRY_DELAYS"],
    ["PHRASEBOOK_WEBHOOK_TIMEOUT", "0", "PHRASEBOOK_WEBHOOK_TIMEOUT"],
    ["PHRASEBOOK_WEBHOOK_ALLOW_CIDRS", "10.0.0.0/8,banana", "PHRASEBOOK_WEBHOOK_ALLOW_CIDRS"],
    ["PHRASEBOOK_ADMIN_PASSWORD", "short", "PHRASEBOOK_ADMIN_PASSWORD: must be at least 8 characters"],
  ];
  for (const [name, value, message] of badSettings) {
    test(`${name}=${JSON.stringify(value)} stops the start with one line naming it`, async () => {
      const r = await cli(["serve"], { [name]: value, PHRASEBOOK_PORT: name === "PHRASEBOOK_PORT" ? value : "0" });
      expect(r.code).toBe(2);
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(r.stderr).toStartWith(`phrasebook: ${message}`);
      expect(r.stderr).not.toContain("short"); // a password never echoes back
    });
  }

  test("a flag overrides its environment variable", async () => {
    const r = await cli(["serve", "--rate-limit=abc"], { PHRASEBOOK_RATE_LIMIT: "5" });
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("phrasebook: PHRASEBOOK_RATE_LIMIT");
  });

  test("user create adds a user who can log in; duplicates, bad roles and names over the limit are one clear line", async () => {
    const dataDir = tempDir();
    try {
      const ok = await cli(["user", "create", "--email", "Ana@Example.test", "--name", "Ana", "--role", "admin"], {
        PHRASEBOOK_DATA_DIR: dataDir,
        PHRASEBOOK_PASSWORD: "s3cret-password",
      });
      expect(ok.stderr).toBe("");
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/^created admin ana@example.test \(usr_[0-9A-Za-z]{20}\), a break-glass account\n$/);
      expect(ok.stdout).not.toContain("s3cret");

      const dup = await cli(["user", "create", "--email", "ana@example.test", "--name", "Ana"], {
        PHRASEBOOK_DATA_DIR: dataDir,
        PHRASEBOOK_PASSWORD: "another-password",
      });
      expect(dup.code).toBe(2);
      expect(dup.stderr).toBe("phrasebook: a user with email ana@example.test already exists\n");

      const role = await cli(["user", "create", "--email", "b@example.test", "--name", "B", "--role", "owner"], { PHRASEBOOK_DATA_DIR: dataDir });
      expect(role.code).toBe(2);
      expect(role.stderr).toBe('phrasebook: --role must be admin or member (got "owner")\n');

      // The route's model bounds what the command line sends too, in the same words (docs/architecture.md "Input models").
      const long = await cli(["user", "create", "--email", "d@example.test", "--name", "D".repeat(201)], { PHRASEBOOK_DATA_DIR: dataDir, PHRASEBOOK_PASSWORD: "long-name-password" });
      expect(long.code).toBe(2);
      expect(long.stderr).toBe('phrasebook: invalid field "name": at most 200 characters\n');

      const piped = await cli(["user", "create", "--email", "c@example.test", "--name", "C"], { PHRASEBOOK_DATA_DIR: dataDir }, "piped-password\n");
      expect(piped.code).toBe(0);
      expect(piped.stdout).toContain("created member c@example.test");

      // The users it wrote sign in to the app on that data dir.
      const app = await testApp({ dataDir, env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
      try {
        const login = await app.client().login("ana@example.test", "s3cret-password");
        expect(login.status).toBe(200);
        expect(login.body.user.role).toBe("admin");
        expect((await app.client().login("c@example.test", "piped-password")).status).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
