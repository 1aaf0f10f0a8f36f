import { HttpError } from "./errors.ts";
import { log } from "./log.ts";

/**
 * Maps any error a route raised to `{status, message}`. Elysia's own validation and parse errors
 * become 400s that name the offending field; unknown errors become a 500 whose body never carries
 * the cause (the cause is logged once).
 */
interface ValueErrorLike {
  path?: string;
  message?: string;
}

interface ElysiaValidationLike {
  type?: string;
  valueError?: ValueErrorLike;
  all?: ValueErrorLike[];
}

const PART_NAMES: Record<string, string> = { body: "body", query: "query parameter", params: "path parameter", headers: "header", cookie: "cookie" };

export function describeValidationError(err: ElysiaValidationLike): string {
  const first = err.valueError ?? err.all?.[0];
  const part = PART_NAMES[err.type ?? ""] ?? err.type ?? "input";
  const path = (first?.path ?? "").replace(/^\//, "").replace(/\//g, ".");
  const why = (first?.message ?? "is invalid").replace(/^Expected/, "expected");
  if (!path) return err.type === "body" ? `invalid request body: ${why}` : `invalid ${part}: ${why}`;
  return `invalid ${part} "${path}": ${why}`;
}

export function toErrorReply(code: string | number, error: unknown, route: string): { status: number; message: string; headers: Record<string, string> } {
  if (error instanceof HttpError) return { status: error.status, message: error.message, headers: error.headers };
  switch (code) {
    case "VALIDATION":
      return { status: 400, message: describeValidationError(error as ElysiaValidationLike), headers: {} };
    case "PARSE":
      return { status: 400, message: "request body is not valid JSON", headers: {} };
    case "NOT_FOUND":
      return { status: 404, message: "not found", headers: {} };
    case "INVALID_COOKIE_SIGNATURE":
      return { status: 401, message: "invalid session", headers: {} };
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, message: (error as Error).message || "bad request", headers: {} };
  }
  log.error("unhandled error", { route, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), stack: (error as Error)?.stack });
  return { status: 500, message: "internal error", headers: {} };
}
