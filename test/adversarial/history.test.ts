/**
 * A key's history, grown by its editors: every save of a translation adds an entry holding the value
 * and the one before it (up to VALUE_MAX_LENGTH each), and `GET .../history` once answered every
 * entry of the key in one body. A member (or a `write` token) that saved two 100 KB values in turn
 * made each read of that key's history, by anyone who may read the project, build a body growing
 * with every save: 120 saves, 48 MB of JSON per answer, read in parallel.
 *
 * The history is now paged like the key list (docs/product.md §8): newest first, at most
 * HISTORY_PAGE_SIZE_MAX entries an answer, with `page_info`, so what one read holds is bounded
 * whatever the key went through. And a translation keeps only its newest HISTORY_KEPT_PER_CELL
 * entries (test/adversarial/write-rate.test.ts), so the history itself is bounded too.
 */
import { afterAll, expect, test } from "bun:test";
import { HISTORY_KEPT_PER_CELL, HISTORY_PAGE_SIZE_DEFAULT, HISTORY_PAGE_SIZE_MAX, VALUE_MAX_LENGTH } from "../../src/authoring/limits.ts";
import { openWorld, type WorldApp } from "../helpers/scenario.ts";
import { standardWorld } from "../dashboard-api/world.ts";

const w: WorldApp = await openWorld(standardWorld);
afterAll(() => w.close());

const SAVES = 120;
/** The most one entry can weigh in the answer: its value and the previous one, plus its fields. */
const ENTRY_MAX_BYTES = 2 * VALUE_MAX_LENGTH + 1024;

test("a key saved many times with the largest values: each read of its history is bounded, in parallel too", async () => {
  const member = w.as("member");
  const { pid, plainKeyId } = w.ids;
  const values = ["a".repeat(VALUE_MAX_LENGTH), "b".repeat(VALUE_MAX_LENGTH)];
  const url = `/projects/${pid}/keys/${plainKeyId}/history`;
  // The world's own entries of the key's other languages; its German ones make way for the saves.
  const others: number = (await member.get(url)).body.items.filter((e: { language_code: string }) => e.language_code !== "de").length;
  const total = others + HISTORY_KEPT_PER_CELL;
  for (let i = 0; i < SAVES; i++) {
    const saved = await member.put(`/projects/${pid}/keys/${plainKeyId}/translations/de`, { value: values[i % 2] });
    expect(saved.status).toBe(200);
  }

  const reads = await Promise.all(Array.from({ length: 4 }, () => w.t.fetch(`/dashboard/api${url}`, { headers: { cookie: member.cookie } })));
  for (const res of reads) {
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThanOrEqual(HISTORY_PAGE_SIZE_MAX * ENTRY_MAX_BYTES);
    const body = JSON.parse(text);
    expect(body.items).toHaveLength(Math.min(HISTORY_PAGE_SIZE_DEFAULT, total));
    expect(body.page_info).toEqual({ total_count: total, page: 1, page_size: HISTORY_PAGE_SIZE_DEFAULT, total_pages: Math.ceil(total / HISTORY_PAGE_SIZE_DEFAULT) });
  }

  // Asking for more than the limit gets the limit; the pages together hold every change kept, newest first.
  const big = await member.get(`${url}?page_size=1000000`);
  expect(big.status).toBe(200);
  expect(big.body.items).toHaveLength(Math.min(HISTORY_PAGE_SIZE_MAX, total));
  const pageSize = 20;
  const pages = [];
  for (let page = 1; page <= Math.ceil(total / pageSize); page++) pages.push(...(await member.get(`${url}?page_size=${pageSize}&page=${page}`)).body.items);
  expect(pages).toHaveLength(total);
  const german = pages.filter((e: any) => e.language_code === "de");
  expect(german).toHaveLength(HISTORY_KEPT_PER_CELL);
  expect(german.at(-1)).toMatchObject({ value: values[(SAVES - HISTORY_KEPT_PER_CELL) % 2], previous_value: values[(SAVES - HISTORY_KEPT_PER_CELL + 1) % 2] });
  expect(big.body.items[0]).toMatchObject({ value: values[(SAVES - 1) % 2], previous_value: values[SAVES % 2] });

  const bad = await member.get(`${url}?page=0`);
  expect(bad.status).toBe(400);
  expect(bad.body.error).toContain('"page"');
}, 300_000);
