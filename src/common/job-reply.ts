import { HttpError } from "./errors.ts";

/**
 * What a job run on a worker thread answers (docs/architecture.md "Reaching SQLite": imports,
 * exports, diffs, key reads, publish languages), as plain data that crosses the thread: its
 * result, a refusal the caller answers as it stands (an HttpError's status and words), or a crash
 * with the error's name and message, and its code (SQLITE_FULL, ENOSPC) so a full disk is
 * answered as one.
 */
export type JobReply<T> = { ok: T } | { refused: { status: number; message: string } } | { crashed: string; code?: string };

/** Runs `job` and says how it went; never throws. */
export async function replyOf<T>(job: () => T | Promise<T>): Promise<JobReply<T>> {
  try {
    return { ok: await job() };
  } catch (err) {
    return failed(err);
  }
}

/** `replyOf` for a job that does not wait (a key read on its thread's connection). */
export function replyNow<T>(job: () => T): JobReply<T> {
  try {
    return { ok: job() };
  } catch (err) {
    return failed(err);
  }
}

function failed(err: unknown): JobReply<never> {
  if (err instanceof HttpError) return { refused: { status: err.status, message: err.message } };
  const code = (err as { code?: unknown })?.code;
  return { crashed: err instanceof Error ? `${err.name}: ${err.message}` : String(err), ...(typeof code === "string" ? { code } : {}) };
}

/** The result of a reply, or its refusal thrown again as the same HttpError, or its crash (`what` names the job). */
export function resultOf<T>(reply: JobReply<T>, what: string): T {
  if ("ok" in reply) return reply.ok;
  if ("refused" in reply) throw new HttpError(reply.refused.status, reply.refused.message);
  throw Object.assign(new Error(`${what}: ${reply.crashed}`), { code: reply.code });
}
