/**
 * Places shared fairly (src/common/fair-places.ts; docs/publishing.md §6 "Limits"): a caller who
 * loops requests fills only their own share, a group (a project) only its own, and what they
 * leave stays open to everyone else; every place taken is given back.
 */
import { describe, expect, test } from "bun:test";
import { FairPlaces } from "../../src/common/fair-places.ts";

describe("fair places", () => {
  test("a caller holds at most their share; the others keep theirs, up to the total", () => {
    const places = new FairPlaces(4, 2);
    expect([places.take("a"), places.take("a"), places.take("a")]).toEqual([null, null, "caller-full"]);
    expect([places.take("b"), places.take("c"), places.take("d")]).toEqual([null, null, "full"]);
    expect(places.heldBy("a")).toBe(2);
    places.release("a");
    expect(places.heldBy("a")).toBe(1);
    expect(places.take("d")).toBeNull(); // the place given back is anyone's
  });

  test("a group holds at most its share, whoever of it asks", () => {
    const places = new FairPlaces(8, 2, 3);
    expect(["a", "b", "c", "d"].map((caller) => places.take(caller, "project-1"))).toEqual([null, null, null, "group-full"]);
    expect(places.take("d", "project-2")).toBeNull();
    places.release("b", "project-1");
    expect(places.take("d", "project-1")).toBeNull();
  });

  test("taking and giving back many times leaves nothing held (no share lost or leaked)", () => {
    const places = new FairPlaces(3, 1, 2);
    for (let round = 0; round < 1000; round++) {
      const caller = `c${round % 5}`;
      const group = `g${round % 3}`;
      if (places.take(caller, group) === null) places.release(caller, group);
    }
    expect(["c0", "c1", "c2", "c3", "c4"].map((c) => places.heldBy(c))).toEqual([0, 0, 0, 0, 0]);
    expect([places.take("x", "g"), places.take("y", "g"), places.take("z", "h")]).toEqual([null, null, null]);
  });
});
