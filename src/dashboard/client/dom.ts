/**
 * A tiny element builder instead of a framework: the pages are forms and tables that re-render
 * whole sections after each change, which plain DOM does in a few lines and a few kilobytes.
 * Text always goes in as text nodes, so a translation value can never become markup.
 */
export type Child = Node | string | number | null | undefined | false | Child[];

type Handler = (event: any) => void;
export type Props = Record<string, string | number | boolean | Handler | null | undefined>;

/** Properties set on the element rather than as attributes (they reflect live state). */
const PROPERTIES = new Set(["value", "checked", "disabled", "selected", "indeterminate"]);

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (PROPERTIES.has(name)) (el as any)[name] = value;
    else el.setAttribute(name === "className" ? "class" : name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

let uniqueCounter = 0;
/** An id for pairing a <label for> with its input. */
export function uid(prefix = "f"): string {
  return `${prefix}-${++uniqueCounter}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

const withZone = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });

/** The exact time in the reader's zone, named: "Dec 1, 2026, 10:00 AM GMT+1" (a schedule must say when, not only how soon). */
export function dateTime(iso: string): string {
  return withZone.format(new Date(iso));
}

/** "3 minutes ago", with the exact time in the tooltip and machine-readable datetime. */
export function time(iso: string | null | undefined, never = "never"): HTMLElement {
  if (!iso) return h("span", { class: "muted" }, never);
  const at = new Date(iso);
  const diff = at.getTime() - Date.now();
  let text = "just now";
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) {
      text = relative.format(Math.round(diff / ms), unit);
      break;
    }
  }
  return h("time", { datetime: iso, title: absolute.format(at) }, text);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
