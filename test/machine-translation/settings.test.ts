/**
 * The machine translation settings (docs/deploy.md "Machine translation"): off unless a kind is
 * set; a kind needs its URL, an openai engine its model; a bad value stops the start with one line
 * naming the setting, and never quotes the key.
 */
import { describe, expect, test } from "bun:test";
import { loadSettings } from "../../src/config/settings.ts";

const load = (env: Record<string, string>) => loadSettings({ PHRASEBOOK_DATA_DIR: "/tmp/x", ...env });

describe("deploy: machine translation settings", () => {
  test("off by default: nothing leaves the machine", () => {
    expect(load({})).toMatchObject({ mtKind: undefined, mtUrl: undefined });
  });

  test("a kind and its URL, kept without a trailing slash", () => {
    expect(load({ PHRASEBOOK_MT_KIND: "LibreTranslate", PHRASEBOOK_MT_URL: "http://127.0.0.1:5000/" })).toMatchObject({ mtKind: "libretranslate", mtUrl: "http://127.0.0.1:5000" });
  });

  test("refused with one line naming the setting", () => {
    const cases: [Record<string, string>, string][] = [
      [{ PHRASEBOOK_MT_KIND: "deepl" }, "PHRASEBOOK_MT_KIND: must be one of libretranslate, openai"],
      [{ PHRASEBOOK_MT_KIND: "libretranslate" }, "PHRASEBOOK_MT_URL: is required when PHRASEBOOK_MT_KIND is set"],
      [{ PHRASEBOOK_MT_URL: "http://127.0.0.1:5000" }, "PHRASEBOOK_MT_URL: needs PHRASEBOOK_MT_KIND"],
      [{ PHRASEBOOK_MT_KIND: "openai", PHRASEBOOK_MT_URL: "http://127.0.0.1:8000/v1" }, "PHRASEBOOK_MT_MODEL: is required when PHRASEBOOK_MT_KIND is openai"],
      [{ PHRASEBOOK_MT_KIND: "libretranslate", PHRASEBOOK_MT_URL: " http://127.0.0.1:5000" }, "PHRASEBOOK_MT_URL: must not start or end with white space"],
      [{ PHRASEBOOK_MT_KIND: "libretranslate", PHRASEBOOK_MT_URL: "ftp://x" }, "PHRASEBOOK_MT_URL: must be an absolute http(s) URL"],
    ];
    for (const [env, message] of cases) expect(() => load({ ...env, PHRASEBOOK_MT_KEY: "sk-never-shown" })).toThrow(message);
    try {
      load({ PHRASEBOOK_MT_KIND: "deepl", PHRASEBOOK_MT_KEY: "sk-never-shown" });
    } catch (err) {
      expect(String(err)).not.toContain("sk-never-shown");
    }
  });
});
