import { HttpError } from "../common/errors.ts";

/**
 * Password hashing and checking (argon2id through `Bun.password`), at most
 * PASSWORD_WORK_CONCURRENCY at a time (docs/deploy.md "Security notes").
 *
 * Each hash or check costs about 64 MiB of memory and tens of milliseconds of a core (Bun's
 * argon2id defaults). Bun runs them on a thread pool as wide as the machine, so a burst of sign-ins
 * from many addresses would otherwise take every core and a multiple of 64 MiB at once. The
 * login limits decide who may try at all (login-throttle.ts); this decides how many tries run
 * together. Waiting work is bounded too: past PASSWORD_WORK_QUEUE_MAX the answer is a 503 at once
 * instead of an ever longer queue.
 *
 * This is process-wide state on purpose, like standard output: the cores and the memory it
 * protects are the process's, whichever app (or command) asks.
 */
export const PASSWORD_WORK_CONCURRENCY = 2;
export const PASSWORD_WORK_QUEUE_MAX = 64;

class PasswordWork {
  active = 0;
  /** The most that ran at once since the process started (tests check the bound holds). */
  peak = 0;
  private readonly waiting: (() => void)[] = [];

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < PASSWORD_WORK_CONCURRENCY) {
      this.active++;
    } else {
      if (this.waiting.length >= PASSWORD_WORK_QUEUE_MAX) {
        throw new HttpError(503, "too many sign-ins at once; try again in a moment", { "retry-after": "1" });
      }
      // The slot of the work that finishes is handed over as is: `active` stays the same.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.peak = Math.max(this.peak, this.active);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export const passwordWork = new PasswordWork();

export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => Bun.password.hash(password)); // argon2id
}

// A fixed hash to check against when the email is unknown, so the time taken does not reveal
// which accounts exist.
let dummyHash: Promise<string> | undefined;

/** Checks a password against a stored hash, or against a dummy hash when there is no account. */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  dummyHash ??= Bun.password.hash("phrasebook-timing-equaliser");
  const against = hash ?? (await dummyHash);
  return passwordWork.run(() => Bun.password.verify(password, against));
}
