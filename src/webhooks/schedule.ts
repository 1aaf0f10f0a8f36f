/**
 * docs/interface.md §6.4 rule 3: 5 attempts in total, separated by the gaps of
 * PHRASEBOOK_WEBHOOK_RETRY_DELAYS (default 1, 16, 81, 256 s), after which a delivery that never
 * succeeded is `failed`.
 */
export const MAX_ATTEMPTS = 5;

export type NextStep =
  | { status: "succeeded"; nextAttemptAt: null }
  | { status: "failed"; nextAttemptAt: null }
  | { status: "pending"; nextAttemptAt: number };

/**
 * What happens to a delivery after attempt number `attemptNumber` (1-based) ended at `endedAt`.
 * The gap is measured from the end of the failed attempt, so a slow receiver never shortens it.
 */
export function nextStep(attemptNumber: number, succeeded: boolean, endedAt: number, retryDelaysSeconds: number[]): NextStep {
  if (succeeded) return { status: "succeeded", nextAttemptAt: null };
  if (attemptNumber >= MAX_ATTEMPTS) return { status: "failed", nextAttemptAt: null };
  const gapSeconds = retryDelaysSeconds[attemptNumber - 1] ?? retryDelaysSeconds[retryDelaysSeconds.length - 1]!;
  return { status: "pending", nextAttemptAt: endedAt + Math.round(gapSeconds * 1000) };
}
