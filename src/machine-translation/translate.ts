import type { HttpFetch } from "../deps.ts";
import type { MessageSyntax } from "../messages/read-types.ts";
import { callEngine } from "./call.ts";
import { MachineError, type Engine, type EngineSettings } from "./engine.ts";
import { engineText, hasText, protect, readBack, rebuild, type Piece } from "./protect.ts";

export { MachineError };

export interface MachineTranslation {
  engine: Engine;
  settings: EngineSettings;
  fetch: HttpFetch;
}

/**
 * `value` (a base string in `syntax`) translated from `source` to `target` by the engine, in one
 * call: each text of the message once (a plural's `other` serves the categories the source
 * lacks), its placeholders and syntax put back as they were. Throws a MachineError when the
 * engine fails or its answer breaks a token; the caller checks the result like any message.
 */
export async function machineTranslate(
  mt: MachineTranslation,
  value: string,
  syntax: MessageSyntax,
  source: string,
  target: string,
  glossary: { term: string; translation: string | null }[] = [],
): Promise<string> {
  const html = mt.engine.name === "libretranslate";
  const p = protect(value, syntax, target);
  const asked = p.pieces.filter(hasText);
  if (asked.length === 0) return value;
  const texts = asked.map((piece) => engineText(piece, html));
  const answers = await callEngine(mt.fetch, mt.engine, mt.settings, { texts: texts.map((t) => t.text), source, target, glossary });
  const translated = new Map<Piece, Piece>();
  asked.forEach((piece, i) => {
    const back = readBack(piece, answers[i]!.trim(), html);
    const { lead, trail } = texts[i]!;
    translated.set(piece, { parts: [...(lead ? [{ text: lead }] : []), ...back.parts, ...(trail ? [{ text: trail }] : [])] });
  });
  return rebuild(p, translated, syntax);
}
