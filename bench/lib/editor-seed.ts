/**
 * The editor benchmark's project (docs/dashboard.md "Speed"): KEYS keys x LANGS languages filled
 * through the import API, one request per language, shaped like a real app's strings: one value in
 * ten has a placeholder and one in twenty a plural; each language other than the base lacks a
 * tenth of the keys (a different tenth each), one value in 500 uses a placeholder the base lacks
 * (an error of the message checks), and a few hundred values of two languages are approved.
 */
import type { DashboardClient } from "../../test/helpers/dashboard-client.ts";

export const CODES = ["en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr", "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id", "ms", "lt", "lv", "et"];

const WORDS = ["account", "settings", "save", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later", "payment", "address", "delivery"];

export const keyName = (i: number) => `screen${i % 60}.section${i % 9}.label_${String(i).padStart(5, "0")}`;

function bundle(code: string, index: number, keys: number): string {
  const out: Record<string, string> = {};
  for (let i = 0; i < keys; i++) {
    if (index > 0 && (i + index) % 10 === 0) continue; // this language's missing tenth
    const text = Array.from({ length: 5 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(" ");
    const name = index > 0 && i % 500 === 7 ? "cnt" : "count";
    out[keyName(i)] =
      i % 10 === 0 ? `${code}: {${name}} ${text}` : i % 20 === 5 ? `${code}: {${name}, plural, one {# ${text}} other {# ${text}s}}` : `${code}: ${text}`;
  }
  return JSON.stringify(out);
}

export interface Seeded {
  pid: string;
  codes: string[];
  seconds: number;
}

export async function seedEditorProject(admin: DashboardClient, keys: number, langs: number, approvals = 300): Promise<Seeded> {
  const started = performance.now();
  const codes = CODES.slice(0, langs);
  const pid = await admin.project("Editor bench", codes[0]!, codes.slice(1));
  for (const [index, code] of codes.entries()) {
    const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: bundle(code, index, keys) });
    if (r.status !== 200) throw new Error(`import ${code}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const page = await admin.get(`/projects/${pid}/keys?page_size=500&languages=${codes[0]}`);
  for (const item of page.body.items.slice(0, approvals / 2)) {
    for (const code of codes.slice(1, 3)) {
      const r = await admin.post(`/projects/${pid}/keys/${item.id}/translations/${code}/approve`);
      if (r.status !== 200 && r.status !== 404) throw new Error(`approve: ${r.status} ${JSON.stringify(r.body)}`); // 404: a missing value
    }
  }
  return { pid, codes, seconds: (performance.now() - started) / 1000 };
}
