import { MachineError, type Engine, type EngineRequest } from "./engine.ts";

/**
 * An OpenAI-compatible chat completions server (https://platform.openai.com/docs/api-reference/chat,
 * which local model servers follow): `POST /v1/chat/completions` with `{model, messages}`, answered
 * `{choices: [{message: {content}}]}`. The texts go as a JSON list and the answer must be one;
 * the glossary's terms found in them are part of the instructions.
 */
function instructions(req: EngineRequest): string {
  const lines = [
    `Translate each text of the JSON list the user sends from ${req.source} to ${req.target}, for an app's user interface.`,
    'Answer with a JSON list of the translations only, in the same order, one string per text, and nothing else.',
    'Each <x id="N"/> tag stands for a placeholder or markup: keep every one exactly as written, once, where it belongs in the translation.',
    "Add no markup, braces or quotes of your own.",
  ];
  const kept = req.glossary.filter((g) => g.translation === null).map((g) => g.term);
  const given = req.glossary.filter((g) => g.translation !== null);
  if (given.length > 0) lines.push(`Use these translations of terms: ${given.map((g) => `"${g.term}" -> "${g.translation}"`).join("; ")}.`);
  if (kept.length > 0) lines.push(`Leave these terms as they are: ${kept.map((t) => `"${t}"`).join(", ")}.`);
  return lines.join("\n");
}

/** The first JSON list in a reply (a model may wrap it in a code fence). */
function listIn(content: string): unknown {
  const start = content.indexOf("[");
  const end = content.lastIndexOf("]");
  if (start < 0 || end < start) throw new MachineError("the engine's answer holds no JSON list of translations");
  try {
    return JSON.parse(content.slice(start, end + 1));
  } catch {
    throw new MachineError("the engine's answer holds no valid JSON list of translations");
  }
}

export const openai: Engine = {
  name: "openai",
  endpoint: (base) => (/\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`),
  request(req, settings) {
    const body = {
      model: settings.model,
      temperature: 0,
      messages: [
        { role: "system", content: instructions(req) },
        { role: "user", content: JSON.stringify(req.texts) },
      ],
    };
    const headers: Record<string, string> = settings.key ? { authorization: `Bearer ${settings.key}` } : {};
    return { body, headers };
  },
  answer(json, count) {
    const content = (json as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new MachineError("the engine's answer has no choices[0].message.content");
    const list = listIn(content);
    if (!Array.isArray(list) || list.length !== count || !list.every((t) => typeof t === "string")) {
      throw new MachineError(`the engine's answer is not a list of ${count} translation${count === 1 ? "" : "s"}`);
    }
    return list as string[];
  },
};
