/** Time comes in as a dependency so schedules can be tested in milliseconds. */
export interface Clock {
  now(): number; // epoch milliseconds
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC with milliseconds, the form every API body and webhook envelope uses. */
export function iso(epochMs: number): string;
export function iso(epochMs: number | null): string | null;
export function iso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
