import { readAtMost } from "../common/http.ts";
import type { HttpFetch } from "../deps.ts";
import { MachineError, type Engine, type EngineRequest, type EngineSettings } from "./engine.ts";

/**
 * One call of the engine (docs/translators.md "Machine translation"): only the configured URL
 * (redirects are not followed), at most ENGINE_TIMEOUT_MS for the whole exchange, the answer read
 * up to ANSWER_MAX_BYTES. Every way it can fail is a MachineError of one line, which never holds
 * the key.
 */
export const ENGINE_TIMEOUT_MS = 10_000;
export const ANSWER_MAX_BYTES = 1024 * 1024;


const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 200);

export async function callEngine(fetch: HttpFetch, engine: Engine, settings: EngineSettings, req: EngineRequest, timeoutMs = ENGINE_TIMEOUT_MS): Promise<string[]> {
  const { body, headers } = engine.request(req, settings);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const late = () => new MachineError(`the engine did not answer within ${timeoutMs / 1000} s`);
  try {
    let res: Response;
    try {
      res = await fetch(engine.endpoint(settings.url), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
        body: JSON.stringify(body),
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (err) {
      if (controller.signal.aborted) throw late();
      throw new MachineError(`the engine could not be reached (${oneLine(err instanceof Error ? err.message : String(err))})`);
    }
    if (res.status >= 300 && res.status < 400) {
      res.body?.cancel().catch(() => {});
      throw new MachineError(`the engine answered ${res.status}, a redirect: only the configured URL is called`);
    }
    let text: string;
    try {
      text = new TextDecoder().decode(await readAtMost(res.body, ANSWER_MAX_BYTES, () => new MachineError(`the engine's answer is larger than ${ANSWER_MAX_BYTES / 1024 / 1024} MB`)));
    } catch (err) {
      if (err instanceof MachineError) throw err;
      if (controller.signal.aborted) throw late();
      throw new MachineError(`the engine's answer could not be read (${oneLine(String(err))})`);
    }
    if (!res.ok) throw new MachineError(`the engine answered ${res.status}${text ? `: ${oneLine(text)}` : ""}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new MachineError("the engine's answer is not JSON");
    }
    return engine.answer(json, req.texts.length);
  } finally {
    clearTimeout(timer);
  }
}
