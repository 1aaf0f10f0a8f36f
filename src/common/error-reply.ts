import type { ValueError } from "@sinclair/typebox/errors";
import { badRequest, HttpError, invalidField, invalidQueryParameter } from "./errors.ts";
import { log } from "./log.ts";
import { fieldOf, whyInvalid } from "./model.ts";

/**
 * Turns anything a route raised into the HttpError that answers it. Elysia's own validation and
 * parse errors become 400s naming the offending field, in the words a service uses for the same
 * limit (common/model.ts); unknown errors become a 500 whose body never carries the cause (the
 * cause is logged once).
 */
interface ElysiaValidationLike {
  type?: string;
  valueError?: ValueError;
  all?: ValueError[];
}

const PART_NAMES: Record<string, string> = { query: "query parameter", params: "path parameter", headers: "header", cookie: "cookie" };

/** The 400 of a validation error: a body field or query parameter named as a service names it. */
export function validationError(err: ElysiaValidationLike): HttpError {
  const first = err.valueError ?? err.all?.[0];
  const field = fieldOf(first);
  const why = whyInvalid(first);
  if (err.type === "body") return field ? invalidField(field, why) : badRequest(`invalid request body: ${why}`);
  if (err.type === "query" && field) return invalidQueryParameter(field, why);
  const part = PART_NAMES[err.type ?? ""] ?? err.type ?? "input";
  return badRequest(field ? `invalid ${part} "${field}": ${why}` : `invalid ${part}: ${why}`);
}

/** Error codes of a full disk: the file system's, and SQLite's (bun:sqlite names it). */
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && DISK_FULL_CODES.has(code);
}

export function toHttpError(code: string | number, error: unknown, route: string): HttpError {
  if (error instanceof HttpError) return error;
  switch (code) {
    case "VALIDATION":
      return validationError(error as ElysiaValidationLike);
    case "PARSE": {
      // The dashboard API's body parser throws its own 400, 413 and 415 (dashboard-api/guards.ts).
      const cause = (error as { cause?: unknown })?.cause;
      if (cause instanceof HttpError) return cause;
      return new HttpError(400, "request body is not valid JSON");
    }
    case "NOT_FOUND":
      return new HttpError(404, "not found");
    case "INVALID_COOKIE_SIGNATURE":
      return new HttpError(401, "invalid session");
  }
  // A full disk is the operator's to fix, and nothing was written: say so, and log it
  // (docs/deploy.md "When the disk fills up": every write is a transaction or a rename, so the
  // database and the published files are as they were).
  if (isDiskFull(error)) {
    log.error("disk full", { route, error: String((error as Error)?.message ?? error) });
    return new HttpError(507, "the server's disk is full: nothing was changed; free space on it and try again");
  }
  // The writer's lock held past busy_timeout (a backup copying the database, another process).
  if ((error as { code?: unknown })?.code === "SQLITE_BUSY") {
    return new HttpError(503, "the database is busy; try again in a moment", { "retry-after": "1" });
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return new HttpError(status, (error as Error).message || "bad request");
  log.error("unhandled error", { route, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), stack: (error as Error)?.stack });
  return new HttpError(500, "internal error");
}
