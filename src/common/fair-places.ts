/**
 * A fixed number of places (imports running or waiting, import bodies being received) shared by
 * every caller, of which one caller may hold only a few: a caller who loops requests fills their
 * own share and is refused, while the places left stay open to everyone else
 * (docs/publishing.md §6 "Limits").
 */
export type PlaceRefusal = "full" | "caller-full";

export class FairPlaces {
  private taken = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perCaller: number,
  ) {}

  /** Takes a place for `caller`, or says why not: every place is taken, or the caller's share is. */
  take(caller: string): PlaceRefusal | null {
    const held = this.byCaller.get(caller) ?? 0;
    if (held >= this.perCaller) return "caller-full";
    if (this.taken >= this.total) return "full";
    this.taken++;
    this.byCaller.set(caller, held + 1);
    return null;
  }

  /** Gives back a place `take` gave `caller`. */
  release(caller: string): void {
    const held = this.byCaller.get(caller) ?? 0;
    if (held <= 1) this.byCaller.delete(caller);
    else this.byCaller.set(caller, held - 1);
    this.taken--;
  }
}
