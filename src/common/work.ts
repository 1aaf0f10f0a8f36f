/**
 * A count of the work a function did, for tests that prove a bound ("linear in the length of the
 * value") by counting instead of timing (docs/architecture.md "Tests"). A function that takes one
 * adds a step for each unit of its own work: an item visited, an entry compared in a list, a lookup
 * in a map or set, and the length of any text it hands to a scanner or parser it does not count
 * inside. Callers that pass none pay one check per loop, never per character.
 */
export interface WorkCounter {
  steps: number;
}
