import type { MachineTranslationKind } from "../config/settings.ts";
import type { Engine } from "./engine.ts";
import { libretranslate } from "./libretranslate.ts";
import { openai } from "./openai.ts";

/** Every engine kind PHRASEBOOK_MT_KIND may name (config/settings.ts MT_KINDS), by name. */
export const ENGINES: Readonly<Record<MachineTranslationKind, Engine>> = { libretranslate, openai };
