/**
 * The sender's in-memory index of pending deliveries, one min-heap per endpoint ordered by due
 * time. The database stays the truth (it is rebuilt from it at start); the index only spares the
 * sender a table scan per tick, so an endpoint with a long backlog that is already at its
 * concurrency limit costs nothing while the others are served.
 */
export interface DueItem {
  id: number;
  dueAt: number;
}

class MinHeap {
  private items: DueItem[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): DueItem | undefined {
    return this.items[0];
  }

  push(item: DueItem): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): DueItem | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

const before = (x: DueItem, y: DueItem) => x.dueAt < y.dueAt || (x.dueAt === y.dueAt && x.id < y.id);

export class DueQueue {
  private heaps = new Map<number, MinHeap>();
  private known = new Set<number>();

  /** Adds a delivery unless it is already queued (or in flight: callers keep it known until done). */
  add(endpointId: number, item: DueItem): void {
    if (this.known.has(item.id)) return;
    this.known.add(item.id);
    let heap = this.heaps.get(endpointId);
    if (!heap) this.heaps.set(endpointId, (heap = new MinHeap()));
    heap.push(item);
  }

  /** Forgets a delivery that is finished, deleted or parked, so that it may be added again later. */
  forget(id: number): void {
    this.known.delete(id);
  }

  has(id: number): boolean {
    return this.known.has(id);
  }

  endpoints(): number[] {
    return [...this.heaps.keys()];
  }

  /** Takes up to `max` deliveries of one endpoint that are due at `now`; they stay known. */
  takeDue(endpointId: number, now: number, max: number): DueItem[] {
    const heap = this.heaps.get(endpointId);
    const out: DueItem[] = [];
    if (!heap) return out;
    while (out.length < max && heap.size > 0 && heap.peek()!.dueAt <= now) out.push(heap.pop()!);
    if (heap.size === 0) this.heaps.delete(endpointId);
    return out;
  }

  /** The earliest due time among the given endpoints' heaps. */
  earliest(endpointIds: Iterable<number>): number | null {
    let min: number | null = null;
    for (const id of endpointIds) {
      const top = this.heaps.get(id)?.peek();
      if (top && (min === null || top.dueAt < min)) min = top.dueAt;
    }
    return min;
  }

  get size(): number {
    return this.known.size;
  }
}
