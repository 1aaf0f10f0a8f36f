/**
 * The translate page ported to Preact with htm, for the measurement of docs/decisions.md "Pages as
 * components" (bench/component-port.bench.sh). Not shipped: the bench copies src/ to a temp dir,
 * puts this file in place of src/dashboard/client/pages/translate.ts and bundles it with Preact
 * installed there. It keeps the page's behaviour; the message editor and the history panel stay
 * the hand-made widgets they are (a port of a page meets them as they are), hosted in a ref.
 */
import { html } from "htm/preact";
import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { post, projectPath, put } from "../api.ts";
import { h, plural } from "../dom.ts";
import { historyPanel, type TranslationView } from "../history.ts";
import { describeFilter, isStatusFilter, loadCounts, STATUS_FILTERS, type StatusFilter } from "../key-filters.ts";
import type { KeyItem } from "../key-grid.ts";
import { projectLanguages, projectPage, type Language } from "../layout.ts";
import { messageEditor, type MessageEditor } from "../message-editor.ts";
import { notTranslatableMark } from "../placeholder-notes.ts";
import { MessageChecker, type MessageProblem } from "../problems.ts";
import { href, navigate, type Ctx } from "../router.ts";
import { message } from "../ui.ts";
import { contextColumn } from "../translate/context-panels.ts";
import { KeyQueue, type Cell } from "../translate/key-queue.ts";

const SHORTCUTS: [string, string][] = [
  ["Ctrl+Enter", "save and next"],
  ["Alt+↓", "next"],
  ["Alt+↑", "previous"],
  ["Ctrl+Shift+Enter", "approve"],
  ["Escape", "undo changes"],
];

interface Choice {
  pid: string;
  languages: Language[];
  base: Language;
  target: Language;
  status: StatusFilter;
  q: string;
  checker: MessageChecker;
}

const hereWith = (c: Choice, next: { lang?: string; status?: StatusFilter }) => {
  const qs = new URLSearchParams({ lang: next.lang ?? c.target.code, status: next.status ?? c.status });
  if (c.q) qs.set("q", c.q);
  return `/projects/${encodeURIComponent(c.pid)}/translate?${qs}`;
};

/** A hand-made element inside a Preact tree. */
function Host({ make }: { make: () => Node | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = make();
    ref.current!.replaceChildren(...(node ? [node] : []));
  }, [make]);
  return html`<div class="host" ref=${ref}></div>`;
}

function Problems({ list, label }: { list: readonly MessageProblem[]; label: string }) {
  return html`<div class="cell-problems" aria-live="polite" aria-label=${`Problems in ${label}`}>
    ${list.length > 0 &&
    html`<ul class="problems">
      ${list.map((p) => html`<li class=${`problem ${p.severity}`} data-code=${p.code}><span class="sr-only">${p.severity}: </span>${p.message.split("`").map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}</li>`)}
    </ul>`}
  </div>`;
}

function Bar({ c, count }: { c: Choice; count: string }) {
  return html`<div class="translate-bar">
    <div class="field">
      <label for="tl-lang">Language</label>
      <select id="tl-lang" onChange=${(e: Event) => navigate(hereWith(c, { lang: (e.target as HTMLSelectElement).value }))}>
        ${c.languages.map((l) => html`<option value=${l.code} selected=${l.code === c.target.code}>${l.code} · ${l.name}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="tl-status">Keys</label>
      <select id="tl-status" onChange=${(e: Event) => navigate(hereWith(c, { status: (e.target as HTMLSelectElement).value as StatusFilter }))}>
        ${STATUS_FILTERS.map((f) => html`<option value=${f.value} selected=${f.value === c.status}>${f.value === "" ? "All keys" : f.label}</option>`)}
      </select>
    </div>
    <div class="translate-meta">
      <p class="muted small" aria-live="polite">${count}</p>
      <a href=${href(`/projects/${encodeURIComponent(c.pid)}/keys`)}>Back to the key grid</a>
    </div>
  </div>`;
}

interface CardProps {
  c: Choice;
  item: KeyItem;
  atFirst: boolean;
  forward: () => Promise<void>;
  back: () => void;
  saved: () => void;
}

function KeyCard({ c, item, atFirst, forward, back, saved: onSaved }: CardProps) {
  const [cell, setCell] = useState<Cell | undefined>(item.translations[c.target.code]);
  const [typed, setTyped] = useState(cell?.value ?? "");
  const [problems, setProblems] = useState<readonly MessageProblem[]>(cell?.problems ?? []);
  const [note, setNote] = useState<{ text: string; error: boolean }>({ text: "", error: false });
  const editorRef = useRef<MessageEditor | null>(null);
  const busy = useRef(false);
  const baseValue = c.target.is_base_language ? null : (item.translations[c.base.code]?.value ?? null);
  const label = `${c.target.code} translation of ${item.key}`;
  const savedValue = cell?.value ?? "";
  const dirty = typed !== savedValue;
  const makeEditor = useMemo(
    () => () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const editor = messageEditor({
        value: savedValue,
        base: baseValue,
        code: c.target.code,
        languageName: c.target.name,
        syntax: c.checker.syntax,
        catalog: c.checker.catalog,
        label,
        onInput: () => {
          setTyped(editor.value());
          clearTimeout(timer);
          timer = setTimeout(() => setProblems(editor.value() === "" ? [] : c.checker.check(editor.value(), c.target.code, baseValue)), 150);
        },
      });
      editorRef.current = editor;
      queueMicrotask(() => editor.focus());
      return editor.element;
    },
    [item.id],
  );
  const apply = (reply: TranslationView) => {
    const next = { value: reply.value, status: reply.status, problems: reply.problems };
    item.translations[c.target.code] = next;
    setCell(next);
    setTyped(reply.value);
    setProblems(reply.problems);
    if (editorRef.current && editorRef.current.value() !== reply.value) editorRef.current.reset(reply.value);
    onSaved();
  };
  const path = (...more: string[]) => projectPath(c.pid, "keys", item.id, "translations", c.target.code, ...more);
  const save = async () => {
    const value = editorRef.current!.value();
    if (value === savedValue || (cell === undefined && value === "")) return true;
    setNote({ text: "Saving…", error: false });
    try {
      apply(await put<TranslationView>(path(), { value }));
      setNote({ text: "Saved", error: false });
      return true;
    } catch (err) {
      setNote({ text: message(err), error: true });
      return false;
    }
  };
  const step = (action: () => Promise<unknown>) => async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      await action();
    } catch (err) {
      setNote({ text: message(err), error: true });
    } finally {
      busy.current = false;
    }
  };
  const next = step(async () => (await save()) && (await forward()));
  const previous = step(async () => (await save()) && back());
  const approve = step(async () => {
    if (!(await save()) || item.translations[c.target.code] === undefined) return;
    if (item.translations[c.target.code]!.status !== "approved") apply(await post<TranslationView>(path("approve")));
    await forward();
  });
  const undo = () => {
    editorRef.current!.reset(savedValue);
    setTyped(savedValue);
    setProblems(cell?.problems ?? []);
    editorRef.current!.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const ctrl = event.ctrlKey || event.metaKey;
    let action: (() => unknown) | null = null;
    if (event.key === "Enter" && ctrl && event.shiftKey) action = approve;
    else if (event.key === "Enter" && ctrl) action = next;
    else if (event.key === "ArrowDown" && event.altKey) action = next;
    else if (event.key === "ArrowUp" && event.altKey) action = previous;
    else if (event.key === "Escape" && dirty) action = undo;
    if (!action) return;
    event.preventDefault();
    void action();
  };
  const makeContext = useMemo(() => () => contextColumn({ pid: c.pid, item, base: c.base, target: c.target, baseValue, syntax: c.checker.syntax }), [item.id]);
  const makeMark = useMemo(() => () => notTranslatableMark(item), [item.id]);
  const makeHistory = useMemo(() => () => historyPanel({ pid: c.pid, keyId: item.id, keyName: item.key, only: c.target.code, current: () => item.translations[c.target.code]?.value ?? "", restored: apply }).element, [item.id]);
  const [historyOpen, setHistoryOpen] = useState(false);
  const status = cell === undefined ? "missing" : cell.status;
  return html`<section class="translate card" aria-labelledby=${`key-${item.id}`} onKeyDown=${onKeyDown}>
    <div class="translate-head">
      <h2 id=${`key-${item.id}`}><code class="key">${item.key}</code><${Host} make=${makeMark} /></h2>
      <span><span class=${`badge ${status}`}>${status}</span>${dirty && html`<span class="muted small"> · unsaved changes</span>`}</span>
    </div>
    <div class="side-by-side">
      <${Host} make=${makeContext} />
      <div class="target">
        <h3>${c.target.name} <code class="muted small">${c.target.code}</code></h3>
        <${Host} make=${makeEditor} />
        <${Problems} list=${problems} label=${label} />
      </div>
    </div>
    <div class="actions translate-actions">
      <button type="button" onClick=${previous} disabled=${atFirst}>Previous<kbd>Alt+↑</kbd></button>
      <button type="button" onClick=${next}>Next<kbd>Alt+↓</kbd></button>
      <button type="button" class="approve" onClick=${approve} disabled=${cell === undefined && !dirty}>Approve<kbd>Ctrl+Shift+Enter</kbd></button>
      <button type="button" class="primary" onClick=${next}>Save and next<kbd>Ctrl+Enter</kbd></button>
      <span class=${note.error ? "cell-note error" : "cell-note"} role="status">${note.text}</span>
    </div>
    <details class="history-box" open=${historyOpen} onToggle=${(e: Event) => setHistoryOpen((e.target as HTMLDetailsElement).open)}>
      <summary>History of this translation</summary>
      ${historyOpen && html`<${Host} make=${makeHistory} />`}
    </details>
  </section>`;
}

function Finished({ c, queue, back }: { c: Choice; queue: KeyQueue; back: () => void }) {
  const skipped = queue.skipped();
  const matching = c.q ? ` matching “${c.q}”` : "";
  const headline =
    skipped > 0
      ? `No more keys ${describeFilter(c.status, c.target)}${matching} ahead: ${plural(skipped, "key")} you passed by ${skipped === 1 ? "is" : "are"} still to do.`
      : c.status === "missing"
        ? `Every key has a ${c.target.name} translation${c.q ? ` among those${matching}` : ""}.`
        : `No more keys ${describeFilter(c.status, c.target) || "to show"}${matching}.`;
  return html`<div class="empty">
    <p class="empty-title">${headline}</p>
    <p>
      <a href=${href(`/projects/${encodeURIComponent(c.pid)}/keys`)}>Back to the key grid</a>
      ${skipped > 0 && html` · <button type="button" class="link" onClick=${() => navigate(hereWith(c, {}), { replace: true })}>Go through them again</button>`}
      ${queue.index >= 0 && html` · <button type="button" class="link" onClick=${back}>Previous key</button>`}
    </p>
  </div>`;
}

function TranslateView({ c, queue, first }: { c: Choice; queue: KeyQueue; first: KeyItem | null }) {
  const [item, setItem] = useState<KeyItem | null>(first);
  const [count, setCount] = useState("");
  const refresh = async () => {
    try {
      const counts = await loadCounts(c.pid, c.target.code, c.q);
      const n = counts[STATUS_FILTERS.find((f) => f.value === c.status)!.count];
      setCount(`${n.toLocaleString()} ${n === 1 ? "key" : "keys"}${c.status ? ` ${describeFilter(c.status, c.target)}` : ""}${c.q ? `${c.status ? "," : ""} matching “${c.q}”` : ""}`);
    } catch {
      // a summary only
    }
  };
  useEffect(() => void refresh(), []);
  const forward = async () => setItem(await queue.next());
  const back = () => {
    const previous = queue.previous();
    if (previous) setItem(previous);
  };
  return html`
    <${Bar} c=${c} count=${count} />
    <p class="muted small shortcuts">Keyboard: ${SHORTCUTS.map(([keys, what], i) => html`${i ? " · " : ""}<kbd>${keys}</kbd> ${what}`)}</p>
    <p class="sr-only" aria-live="polite">${item ? `${item.key}${item.translations[c.target.code] ? "" : ", missing"}` : "No more keys in this filter."}</p>
    <div class="translate-stage">
      ${item ? html`<${KeyCard} key=${item.id} c=${c} item=${item} atFirst=${queue.index === 0} forward=${forward} back=${back} saved=${refresh} />` : html`<${Finished} c=${c} queue=${queue} back=${back} />`}
    </div>
  `;
}

export function translatePage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Translate", async (project) => {
    const languages = await projectLanguages(pid);
    const base = languages.find((l) => l.is_base_language) ?? languages[0]!;
    const wanted = ctx.query.get("lang")?.toLowerCase();
    const target = languages.find((l) => l.code.toLowerCase() === wanted) ?? languages.find((l) => !l.is_base_language) ?? base;
    const rawStatus = ctx.query.get("status") ?? "missing";
    const status: StatusFilter = isStatusFilter(rawStatus) ? rawStatus : "missing";
    const c: Choice = { pid, languages, base, target, status, q: ctx.query.get("q") ?? "", checker: new MessageChecker(project.message_syntax, languages) };
    const queue = new KeyQueue(pid, [...new Set([base.code, target.code])], target.code, status, c.q);
    const first = await queue.next();
    const root = h("div", { class: "translate-root" });
    render(html`<${TranslateView} c=${c} queue=${queue} first=${first} />`, root);
    return root;
  });
}
