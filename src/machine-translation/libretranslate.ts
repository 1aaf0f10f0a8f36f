import { MachineError, type Engine } from "./engine.ts";

/**
 * LibreTranslate (https://libretranslate.com/docs): `POST /translate` with `{q, source, target,
 * format, api_key}`, `q` a list of texts, answered `{translatedText: [...]}`. Sent as `html`, so
 * the engine keeps the `<x id="N"/>` tokens as markup and translates only the text between them.
 */
export const libretranslate: Engine = {
  name: "libretranslate",
  endpoint: (base) => `${base}/translate`,
  request(req, settings) {
    const body: Record<string, unknown> = { q: req.texts, source: req.source, target: req.target, format: "html" };
    if (settings.key) body.api_key = settings.key;
    return { body, headers: {} };
  },
  answer(json, count) {
    const translated = (json as { translatedText?: unknown } | null)?.translatedText;
    const list = typeof translated === "string" && count === 1 ? [translated] : translated;
    if (!Array.isArray(list) || list.length !== count || !list.every((t) => typeof t === "string")) {
      throw new MachineError(`the engine's answer has no translatedText list of ${count} text${count === 1 ? "" : "s"}`);
    }
    return list as string[];
  },
};
