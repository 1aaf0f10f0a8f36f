import type { Actor } from "../changes/actor.ts";
import { ProjectChecks } from "../authoring/checks.ts";
import { findKey } from "../authoring/keys.ts";
import { invalidQueryParameter } from "../common/errors.ts";
import { log } from "../common/log.ts";
import type { AppDeps } from "../deps.ts";
import { ENGINES } from "../machine-translation/registry.ts";
import { machineTranslate, MachineError, type MachineTranslation } from "../machine-translation/translate.ts";
import type { MessageProblem } from "../messages/check.ts";
import { translationOf } from "../messages/glossary.ts";
import { languages, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import { eq } from "drizzle-orm";
import { PRETRANSLATE_MIN_SCORE_DEFAULT, SUGGESTION_EXACT_SCORE, SUGGESTIONS_MAX, type PretranslateInput, type SuggestionsQuery } from "./model.ts";
import { pretranslateLanguage, saveFills, type Fill, type PretranslateJob, type PretranslateProgress } from "./pretranslate.ts";
import type { ReadScope } from "./scope.ts";
import { baseValueOf, TranslationMemory, type MemorySuggestion } from "./suggestions.ts";

/**
 * Help for translators on the server's side (docs/translators.md): suggestions from the memory
 * and the machine, and pre-translation. One per app, holding the memory's statements and index
 * and the machine translation engine the settings name (none: nothing leaves the machine).
 */
export interface MachineSuggestion {
  source: "machine";
  value: string;
  score: null;
  from: { engine: string; language_code: string };
  problems: MessageProblem[];
}

export type Suggestion = MemorySuggestion | MachineSuggestion;

/** Machine translations pre-translation asks for at once, and at most per run (the rest are counted as skipped). */
export const PRETRANSLATE_MACHINE_AT_ONCE = 4;
export const PRETRANSLATE_MACHINE_MAX = 1000;

function flag(raw: string | undefined, name: string, dflt: boolean): boolean {
  if (raw === undefined) return dflt;
  if (raw === "true" || raw === "false") return raw === "true";
  throw invalidQueryParameter(name, "must be true or false");
}

export class TranslatorHelp {
  readonly memory: TranslationMemory;
  readonly machine: MachineTranslation | null;

  constructor(
    private readonly deps: AppDeps,
    private readonly offThread: (job: PretranslateJob) => Promise<PretranslateProgress>,
  ) {
    this.memory = new TranslationMemory(deps.db);
    const { mtKind, mtUrl, mtKey, mtModel } = deps.settings;
    this.machine = mtKind && mtUrl ? { engine: ENGINES[mtKind], settings: { url: mtUrl, key: mtKey, model: mtModel }, fetch: deps.fetch } : null;
  }

  private language(project: ProjectRow, code: string | undefined, name: string): LanguageRow {
    if (code === undefined || code.trim() === "") throw invalidQueryParameter(name, "required: the language to suggest translations into");
    const all = this.deps.db.select().from(languages).where(eq(languages.projectId, project.id)).all();
    const found = all.find((l) => l.code.toLowerCase() === code.trim().toLowerCase());
    if (!found) throw invalidQueryParameter(name, `${code.slice(0, 40)} is not a language of this project`);
    return found;
  }

  /**
   * `GET .../keys/:keyId/suggestions?language=CODE`: the memory's matches, best first, with the
   * machine's translation after the exact ones when an engine is set (and `machine` is not
   * `false`); its failure is `machine_error`, one line.
   */
  async suggestions(project: ProjectRow, keyPublicId: string, query: SuggestionsQuery, scope: ReadScope): Promise<{ items: Suggestion[]; machine_error?: string }> {
    const key = findKey(this.deps.db, project, keyPublicId);
    const language = this.language(project, query.language, "language");
    const askMachine = flag(query.machine, "machine", true);
    const memory = this.memory.suggest(project, keyPublicId, language, scope);
    if (!this.machine || !askMachine || language.code === project.baseLanguageCode) return { items: memory };
    const base = baseValueOf(this.deps.db, project, key);
    if (base === null || base.trim() === "") return { items: memory };
    const checks = new ProjectChecks(this.deps.db, project);
    let machine: MachineSuggestion;
    try {
      const value = await this.translate(project, checks, base, language);
      machine = { source: "machine", value, score: null, from: { engine: this.machine.engine.name, language_code: language.code }, problems: checks.findings(key.id, language.id, value).problems };
    } catch (err) {
      if (!(err instanceof MachineError)) throw err;
      log.warn("machine translation failed", { project_id: project.publicId, language: language.code, engine: this.machine.engine.name, reason: err.message });
      return { items: memory, machine_error: err.message };
    }
    const exact = memory.filter((m) => m.score === SUGGESTION_EXACT_SCORE);
    const rest = memory.filter((m) => m.score !== SUGGESTION_EXACT_SCORE);
    return { items: [...exact, machine, ...rest].slice(0, SUGGESTIONS_MAX) };
  }

  /** The machine's translation of a base string, the glossary's terms in it given to the engine. */
  private translate(project: ProjectRow, checks: ProjectChecks, base: string, language: LanguageRow): Promise<string> {
    const terms = (checks.glossary?.find(base) ?? []).flatMap((t) => {
      const translation = t.doNotTranslate ? null : translationOf(t, language.code);
      return t.doNotTranslate || translation !== null ? [{ term: t.term, translation }] : [];
    });
    return machineTranslate(this.machine!, base, project.messageSyntax, project.baseLanguageCode, language.code, terms);
  }

  /** `POST /projects/:pid/pretranslate` (docs/translators.md "Pre-translation"). */
  async pretranslate(project: ProjectRow, input: PretranslateInput, scope: ReadScope, actor: Actor): Promise<{ filled: number; skipped: number; machine_error?: string }> {
    const { db, settings, clock, changes } = this.deps;
    const all = db.select().from(languages).where(eq(languages.projectId, project.id)).all();
    const language = pretranslateLanguage(all, project, input.language_code);
    const withMachine = input.machine === true && this.machine !== null;
    const progress = await this.offThread({
      dataDir: settings.dataDir,
      project,
      language,
      minScore: input.min_score ?? PRETRANSLATE_MIN_SCORE_DEFAULT,
      scope: { only: scope.only ? [...scope.only] : null, except: [...scope.except] },
      actor,
      now: clock.now(),
      leftWanted: withMachine,
    });
    if (progress.filled > 0) {
      changes.notify(project.id);
      changes.wake();
    }
    let machineError: string | undefined;
    if (withMachine) {
      const left = progress.left.slice(0, PRETRANSLATE_MACHINE_MAX);
      progress.skipped += progress.left.length - left.length;
      const checks = new ProjectChecks(db, project);
      const fills: Fill[] = [];
      for (let at = 0; at < left.length; at += PRETRANSLATE_MACHINE_AT_ONCE) {
        await Promise.all(
          left.slice(at, at + PRETRANSLATE_MACHINE_AT_ONCE).map(async (k) => {
            try {
              const value = await this.translate(project, checks, k.base, language);
              if (checks.findings(k.id, language.id, value).problems.length > 0) progress.skipped++;
              else fills.push({ keyId: k.id, key: k.key, value });
            } catch (err) {
              if (!(err instanceof MachineError)) throw err;
              machineError ??= err.message;
              progress.skipped++;
            }
          }),
        );
      }
      const saved = fills.length > 0 ? saveFills(db, changes, project, language, fills, "machine", actor, clock.now()) : 0;
      progress.filled += saved;
      progress.skipped += fills.length - saved;
      if (saved > 0) changes.notify(project.id);
    } else if (input.machine === true) machineError = "no machine translation engine is set up on this server (PHRASEBOOK_MT_KIND)";
    return { filled: progress.filled, skipped: progress.skipped, ...(machineError ? { machine_error: machineError } : {}) };
  }
}
