import { checkMessage, type MessageProblem, type ProblemItem } from "../../messages/check.ts";
import { glossaryFindings, type GlossaryMatcher } from "../../messages/glossary.ts";
import { PluralCatalog } from "../../messages/plurals.ts";
import { readMessage, type MessageSyntax, type ReadMessage } from "../../messages/read.ts";
import { h } from "./dom.ts";
import type { Language } from "./layout.ts";
import { link } from "./router.ts";

/**
 * The message checks in the browser (docs/product.md §7, docs/messages.md): the very functions the
 * server stores findings with, so what a cell shows while typing is what saving will record.
 */
export type { MessageProblem, ProblemItem };

export class MessageChecker {
  /** Plural rules by language, shared with the plural and select editor (message-editor.ts). */
  readonly catalog = new PluralCatalog();
  private readonly names = new Map<string, string>();
  private readonly baseName: string;
  /** The project's glossary, for its warnings as a value is typed (the translate page loads it). */
  glossary: GlossaryMatcher | null = null;

  constructor(
    readonly syntax: MessageSyntax,
    languages: Language[],
  ) {
    for (const l of languages) this.names.set(l.code, l.name);
    this.baseName = languages.find((l) => l.is_base_language)?.name ?? "base";
  }

  /** The language's name as the project calls it ("French"). */
  languageName(code: string): string {
    return this.names.get(code) ?? code;
  }

  read(value: string): ReadMessage {
    return readMessage(value, this.syntax);
  }

  /** The problems of `value` in `code`; `base` is the key's base-language value (null for the base language itself or none). */
  check(value: string, code: string, base: string | null): MessageProblem[] {
    const found = checkMessage(value, this.read(value), {
      syntax: this.syntax,
      languageName: this.names.get(code) ?? code,
      plurals: this.catalog.of(code),
      baseName: this.baseName,
      base: base === null ? null : this.read(base),
    });
    // The server's order: the other checks' findings, then the glossary's (authoring/checks.ts).
    const terms = this.glossary && base !== null ? glossaryFindings(base, value, code, this.glossary) : [];
    return terms.length > 0 ? [...found, ...terms] : found;
  }
}

/** A finding's text with its `quoted` parts as code, inserted as text (never markup). */
function messageText(message: string): (string | HTMLElement)[] {
  return message.split("`").map((part, i) => (i % 2 === 1 ? h("code", null, part) : part));
}

/** The findings under a cell: errors first, each marked by its severity in words and colour. */
export function problemList(problems: readonly MessageProblem[]): HTMLElement | null {
  if (problems.length === 0) return null;
  return h(
    "ul",
    { class: "problems" },
    problems.map((p) => h("li", { class: `problem ${p.severity}`, "data-code": p.code }, h("span", { class: "sr-only" }, `${p.severity}: `), messageText(p.message))),
  );
}

/** Findings with where they are: a link to the key in the grid, the language, the message. */
export function problemTable(pid: string, items: readonly ProblemItem[]): HTMLElement {
  return h(
    "ul",
    { class: "problem-list" },
    items.map((p) =>
      h(
        "li",
        { class: `problem ${p.severity}` },
        link(`/projects/${encodeURIComponent(pid)}/keys?q=${encodeURIComponent(p.key)}`, h("code", null, p.key)),
        " ",
        h("code", { class: "tag" }, p.language_code),
        " ",
        messageText(p.message),
      ),
    ),
  );
}

/** "2 errors · 1 warning" for a progress card, or nothing when there are none. */
export function problemCounts(errors: number, warnings: number): HTMLElement | null {
  if (errors === 0 && warnings === 0) return null;
  const parts: HTMLElement[] = [];
  if (errors > 0) parts.push(h("span", { class: "count-error" }, `${errors.toLocaleString()} ${errors === 1 ? "error" : "errors"}`));
  if (warnings > 0) parts.push(h("span", { class: "count-warning" }, `${warnings.toLocaleString()} ${warnings === 1 ? "warning" : "warnings"}`));
  return h("div", { class: "small problem-counts" }, parts.flatMap((p, i) => (i === 0 ? [p] : [" · ", p])));
}
