/**
 * A small Prometheus registry: counters and histograms with fixed label names, rendered in the
 * text exposition format (version 0.0.4). Written here rather than pulled in (prom-client) because
 * the CDN hot path needs a per-request cost of one Map lookup and two additions: callers resolve a
 * label set to a cell once (`cell(labels)`) and keep it; we need nothing else prom-client offers.
 */
type Labels = Record<string, string>;

function labelKey(names: readonly string[], labels: Labels): string {
  if (names.length === 0) return "";
  let key = labels[names[0]!] ?? "";
  for (let i = 1; i < names.length; i++) key += "\u0000" + (labels[names[i]!] ?? "");
  return key;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function renderLabels(names: readonly string[], key: string, extra = ""): string {
  const values = key.split("\u0000");
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? "")}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(",")}}` : "";
}

interface Metric {
  render(): string;
}

export interface CounterCell {
  value: number;
}

export class Counter implements Metric {
  private cells = new Map<string, CounterCell>();
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[] = []) {}

  /** The cell of one label set; keep it and add to `.value` on hot paths. */
  cell(labels: Labels = {}): CounterCell {
    const key = labelKey(this.labelNames, labels);
    let c = this.cells.get(key);
    if (!c) this.cells.set(key, (c = { value: 0 }));
    return c;
  }

  inc(labels: Labels = {}, by = 1): void {
    this.cell(labels).value += by;
  }

  get(labels: Labels = {}): number {
    return this.cells.get(labelKey(this.labelNames, labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, c] of this.cells) lines.push(`${this.name}${renderLabels(this.labelNames, key)} ${c.value}`);
    return lines.join("\n");
  }
}

/** A value read at scrape time (queue depths, cache sizes). */
export class Gauge implements Metric {
  constructor(readonly name: string, readonly help: string, private read: () => number) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join("\n");
  }
}

export const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class HistogramCell {
  /** Observations per bucket, not cumulative: an observation touches one slot. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++; // most requests stop at the first bound
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

export class Histogram implements Metric {
  private cells = new Map<string, HistogramCell>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[] = [],
    readonly buckets: readonly number[] = LATENCY_BUCKETS_SECONDS,
  ) {}

  cell(labels: Labels = {}): HistogramCell {
    const key = labelKey(this.labelNames, labels);
    let c = this.cells.get(key);
    if (!c) this.cells.set(key, (c = new HistogramCell(this.buckets)));
    return c;
  }

  observe(labels: Labels, value: number): void {
    this.cell(labels).observe(value);
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, c] of this.cells) {
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += c.counts[i]!;
        lines.push(`${this.name}_bucket${renderLabels(this.labelNames, key, `le="${b}"`)} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${renderLabels(this.labelNames, key, 'le="+Inf"')} ${c.count}`);
      lines.push(`${this.name}_sum${renderLabels(this.labelNames, key)} ${c.sum}`);
      lines.push(`${this.name}_count${renderLabels(this.labelNames, key)} ${c.count}`);
    }
    return lines.join("\n");
  }
}

export class Registry {
  private metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return this.metrics.map((m) => m.render()).join("\n") + "\n";
  }
}
