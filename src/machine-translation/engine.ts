/**
 * A machine translation engine (docs/translators.md "Machine translation"): how to ask it for
 * the translations of a list of texts, and how to read its answer. One file per kind
 * (libretranslate.ts, openai.ts), listed in registry.ts; the settings name the kind
 * (PHRASEBOOK_MT_KIND) and the engine's base URL.
 */
export interface EngineSettings {
  url: string;
  key: string | undefined;
  model: string | undefined;
}

export interface EngineRequest {
  /** The texts, each with its placeholders and markup as `<x id="N"/>` tokens. */
  texts: string[];
  source: string;
  target: string;
  /** Terms of the glossary found in the texts, with their translation or marked not to be translated. */
  glossary: { term: string; translation: string | null }[];
}

export interface Engine {
  name: string;
  /** The one URL this engine is called at, from its base URL. */
  endpoint(base: string): string;
  /** The request's JSON body and headers. */
  request(req: EngineRequest, settings: EngineSettings): { body: unknown; headers: Record<string, string> };
  /** The translations from the answer's JSON, one per text in order; throws a MachineError when it holds none. */
  answer(json: unknown, count: number): string[];
}

/** Why the engine gave no usable answer: one line, shown beside the suggestions as `machine_error`. */
export class MachineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MachineError";
  }
}
