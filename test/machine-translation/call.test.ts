/**
 * One call of an engine (docs/translators.md "Machine translation"): a slow engine costs at most
 * the call's time (10 s on the server; a shorter one here, so the test waits less), whether it
 * never answers or sends its headers and then stalls. Shown by state: the call gives up with its
 * one-line reason, while the stand-in still holds the request open.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { callEngine, ENGINE_TIMEOUT_MS, ANSWER_MAX_BYTES } from "../../src/machine-translation/call.ts";
import { libretranslate } from "../../src/machine-translation/libretranslate.ts";
import { startEngineStandIn, type EngineStandIn } from "../helpers/mt-engines.ts";

let engine: EngineStandIn;
beforeAll(() => {
  engine = startEngineStandIn();
});
afterAll(() => engine.stop());

const ask = (timeoutMs: number) =>
  callEngine(fetch, libretranslate, { url: engine.url, key: undefined, model: undefined }, { texts: ["Save"], source: "en", target: "de", glossary: [] }, timeoutMs);

describe("translators.md: a slow engine", () => {
  test("the server's bounds are the contract's: 10 s and 1 MB", () => {
    expect(ENGINE_TIMEOUT_MS).toBe(10_000);
    expect(ANSWER_MAX_BYTES).toBe(1024 * 1024);
  });

  test("an engine that never answers is given up at the call's time", async () => {
    engine.misbehave = "hang";
    await expect(ask(300)).rejects.toThrow("the engine did not answer within 0.3 s");
  });

  test("an engine that sends its headers and then stalls is given up too: the time covers the body", async () => {
    engine.misbehave = "stall";
    await expect(ask(300)).rejects.toThrow("the engine did not answer within 0.3 s");
  });

  test("an engine that answers in time is read", async () => {
    engine.misbehave = "none";
    expect(await ask(ENGINE_TIMEOUT_MS)).toEqual(["SAVE"]);
  });
});
