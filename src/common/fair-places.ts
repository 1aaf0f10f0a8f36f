/**
 * A fixed number of places (imports running or waiting, import bodies being received, searches)
 * shared by every caller, of which one caller may hold only a few, and one group (a project) only
 * some: a caller who loops requests fills their own share and is refused, while the places left
 * stay open to everyone else, and one project's imports cannot take the places of every other
 * project (docs/publishing.md §6 "Limits").
 */
export type PlaceRefusal = "full" | "caller-full" | "group-full";

export class FairPlaces {
  private taken = 0;
  private readonly byCaller = new Map<string, number>();
  private readonly byGroup = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perCaller: number,
    /** The places one group may hold; no bound of its own when not given. */
    readonly perGroup = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Takes a place for `caller` (in `group`, when places are counted by group too), or says why
   * not: the caller's share is taken, the group's, or every place.
   */
  take(caller: string, group?: string): PlaceRefusal | null {
    const held = this.byCaller.get(caller) ?? 0;
    if (held >= this.perCaller) return "caller-full";
    const inGroup = group === undefined ? 0 : (this.byGroup.get(group) ?? 0);
    if (inGroup >= this.perGroup) return "group-full";
    if (this.taken >= this.total) return "full";
    this.taken++;
    this.byCaller.set(caller, held + 1);
    if (group !== undefined) this.byGroup.set(group, inGroup + 1);
    return null;
  }

  /** Gives back a place `take` gave `caller` (in `group`). */
  release(caller: string, group?: string): void {
    this.taken--;
    drop(this.byCaller, caller);
    if (group !== undefined) drop(this.byGroup, group);
  }

  /** How many places `caller` holds now. */
  heldBy(caller: string): number {
    return this.byCaller.get(caller) ?? 0;
  }
}

function drop(counts: Map<string, number>, key: string): void {
  const held = counts.get(key) ?? 0;
  if (held <= 1) counts.delete(key);
  else counts.set(key, held - 1);
}
