/**
 * A small Prometheus registry: counters and histograms with fixed label names, rendered in the
 * text exposition format (version 0.0.4). Written here rather than pulled in (prom-client) because
 * the CDN hot path needs an increment that is one Map lookup, and we need nothing else it offers.
 */
type Labels = Record<string, string>;

function labelKey(names: readonly string[], labels: Labels): string {
  // A loop rather than map/join: this runs for every request (CDN hits included), allocation-free.
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

export class Counter implements Metric {
  private values = new Map<string, number>();
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[] = []) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(this.labelNames, labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(this.labelNames, labels)) ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, v] of this.values) lines.push(`${this.name}${renderLabels(this.labelNames, key)} ${v}`);
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

export class Histogram implements Metric {
  private series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[] = [],
    readonly buckets: readonly number[] = LATENCY_BUCKETS_SECONDS,
  ) {}

  observe(labels: Labels, value: number): void {
    const key = labelKey(this.labelNames, labels);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, s] of this.series) {
      this.buckets.forEach((b, i) => lines.push(`${this.name}_bucket${renderLabels(this.labelNames, key, `le="${b}"`)} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${renderLabels(this.labelNames, key, 'le="+Inf"')} ${s.count}`);
      lines.push(`${this.name}_sum${renderLabels(this.labelNames, key)} ${s.sum}`);
      lines.push(`${this.name}_count${renderLabels(this.labelNames, key)} ${s.count}`);
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
