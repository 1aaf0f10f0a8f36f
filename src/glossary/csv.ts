import { and, eq } from "drizzle-orm";
import { badRequest } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { glossaryTerms, type ProjectRow } from "../storage/schema.ts";
import { cleanTerm, listTerms, mergeTranslations, projectCodes, recheckTerms, termCount } from "./glossary.ts";
import { GLOSSARY_NOTE_MAX_LENGTH, GLOSSARY_TERM_MAX_LENGTH, GLOSSARY_TERMS_MAX } from "./limits.ts";
import { atMostCharacters } from "../common/model.ts";

/**
 * The glossary as CSV (docs/translators.md "Glossary"), RFC 4180: the header
 * `term,<code>,<code>...,note,case_sensitive,do_not_translate`, one term a row, the flags `true` or
 * `false`. An import matches terms exactly: a known one gets the file's translations (an empty
 * cell removes that language's), note and flags; a new one is added. The note and flag columns are
 * optional on import; a column is known by its name.
 */

const FIXED = ["note", "case_sensitive", "do_not_translate"] as const;

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function glossaryCsv(db: Db, project: ProjectRow): string {
  const codes = [...projectCodes(db, project).values()].map((l) => l.code).filter((c) => c !== project.baseLanguageCode).sort();
  const lines = [["term", ...codes, ...FIXED].join(",")];
  for (const t of listTerms(db, project)) {
    lines.push([t.term, ...codes.map((c) => t.translations[c] ?? ""), t.note, String(t.case_sensitive), String(t.do_not_translate)].map(field).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

const invalidCsv = (line: number, why: string) => badRequest(`invalid CSV: line ${line}: ${why}`);

/** The rows of a CSV text, each with the line it starts on. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let quoted = false;
  let wasQuoted = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        cell += c;
      }
      continue;
    }
    if (c === '"') {
      if (cell !== "" || wasQuoted) throw invalidCsv(line, "a quote inside a field that does not start with one");
      quoted = wasQuoted = true;
    } else if (c === ",") {
      cells.push(cell);
      cell = "";
      wasQuoted = false;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      cells.push(cell);
      if (cells.length > 1 || cells[0] !== "") rows.push({ line: rowLine, cells });
      cells = [];
      cell = "";
      wasQuoted = false;
      line++;
      rowLine = line;
    } else {
      if (wasQuoted) throw invalidCsv(line, "text after a quoted field's closing quote");
      cell += c;
    }
  }
  if (quoted) throw invalidCsv(rowLine, "a quoted field is never closed");
  cells.push(cell);
  if (cells.length > 1 || cells[0] !== "") rows.push({ line: rowLine, cells });
  return rows;
}

function flag(value: string | undefined, name: string, line: number): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === "") return false;
  if (v === "true" || v === "false") return v === "true";
  throw invalidCsv(line, `${name} must be true or false, not ${JSON.stringify(value.slice(0, 20))}`);
}

export interface GlossaryImportResult {
  created: number;
  updated: number;
  unchanged: number;
}

export async function importGlossaryCsv(deps: ServiceDeps, project: ProjectRow, bytes: Uint8Array): Promise<GlossaryImportResult> {
  const { db, clock } = deps;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("invalid CSV: not valid UTF-8");
  }
  const [header, ...rows] = parseCsv(text);
  if (!header || header.cells[0]?.trim().toLowerCase() !== "term") throw invalidCsv(1, "the first column of the header must be term");
  const codes = projectCodes(db, project);
  const columns = header.cells.map((c) => c.trim());
  const fixedAt = Object.fromEntries(FIXED.map((name) => [name, columns.indexOf(name)])) as Record<(typeof FIXED)[number], number>;
  const languageColumns: [number, string][] = [];
  columns.forEach((name, i) => {
    if (i === 0 || (FIXED as readonly string[]).includes(name)) return;
    const code = codes.get(name.toLowerCase())?.code;
    if (!code) throw invalidCsv(1, `column ${JSON.stringify(name.slice(0, 40))} is not a language of this project (nor note, case_sensitive or do_not_translate)`);
    languageColumns.push([i, code]);
  });
  const result: GlossaryImportResult = { created: 0, updated: 0, unchanged: 0 };
  const touched: string[] = [];
  const seen = new Set<string>();
  const now = clock.now();
  db.transaction(() => {
    let count = termCount(db, project.id);
    for (const { line, cells } of rows) {
      if (cells.length > columns.length) throw invalidCsv(line, `${cells.length} fields; the header has ${columns.length}`);
      let term: string;
      try {
        term = cleanTerm(cells[0] ?? "");
      } catch {
        throw invalidCsv(line, "the term is empty or holds control characters");
      }
      if (term.length > GLOSSARY_TERM_MAX_LENGTH) throw invalidCsv(line, `the term: ${atMostCharacters(GLOSSARY_TERM_MAX_LENGTH)}`);
      if (seen.has(term)) throw invalidCsv(line, `the term ${JSON.stringify(term)} is listed twice`);
      seen.add(term);
      const given: Record<string, string> = {};
      for (const [i, code] of languageColumns) {
        const value = cells[i] ?? "";
        if (value.length > GLOSSARY_TERM_MAX_LENGTH) throw invalidCsv(line, `the ${code} translation: ${atMostCharacters(GLOSSARY_TERM_MAX_LENGTH)}`);
        given[code] = value;
      }
      const note = fixedAt.note >= 0 ? (cells[fixedAt.note] ?? "").trim() : undefined;
      if (note !== undefined && note.length > GLOSSARY_NOTE_MAX_LENGTH) throw invalidCsv(line, `the note: ${atMostCharacters(GLOSSARY_NOTE_MAX_LENGTH)}`);
      const caseSensitive = fixedAt.case_sensitive >= 0 ? flag(cells[fixedAt.case_sensitive], "case_sensitive", line) : undefined;
      const doNotTranslate = fixedAt.do_not_translate >= 0 ? flag(cells[fixedAt.do_not_translate], "do_not_translate", line) : undefined;
      const before = db.select().from(glossaryTerms).where(and(eq(glossaryTerms.projectId, project.id), eq(glossaryTerms.term, term))).get();
      let translations: Record<string, string>;
      try {
        translations = mergeTranslations(codes, before?.translations ?? {}, given);
      } catch (err) {
        throw invalidCsv(line, (err as Error).message.replace(/^invalid field "translations": /, ""));
      }
      const values = {
        translations,
        note: note ?? before?.note ?? "",
        caseSensitive: caseSensitive ?? before?.caseSensitive ?? false,
        doNotTranslate: doNotTranslate ?? before?.doNotTranslate ?? false,
      };
      if (!before) {
        if (++count > GLOSSARY_TERMS_MAX) throw invalidCsv(line, `the glossary would hold more than ${GLOSSARY_TERMS_MAX.toLocaleString("en-US")} terms`);
        db.insert(glossaryTerms).values({ publicId: newId("gls"), projectId: project.id, term, ...values, createdAt: now, updatedAt: now }).run();
        result.created++;
        touched.push(term);
      } else if (
        JSON.stringify(before.translations) !== JSON.stringify(values.translations) ||
        before.note !== values.note ||
        before.caseSensitive !== values.caseSensitive ||
        before.doNotTranslate !== values.doNotTranslate
      ) {
        db.update(glossaryTerms).set({ ...values, updatedAt: Math.max(now, before.updatedAt + 1) }).where(eq(glossaryTerms.id, before.id)).run();
        result.updated++;
        touched.push(term);
      } else result.unchanged++;
    }
  });
  await recheckTerms(deps, project, touched);
  return result;
}
