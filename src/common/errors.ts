/**
 * The one way to fail. Over HTTP: a service throws an `HttpError`; its `toResponse()` is the answer
 * `{"error": message}` with its status (docs/architecture.md "Errors"). Answers built before the web
 * framework (CDN files, public API hits) use the same `toResponse()`. On the command line: a
 * `CliError` is one line on stderr and an exit code (docs/product.md §6).
 */
const JSON_TYPE = "application/json; charset=utf-8";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The exact body, where a document fixes it byte for byte (the public API's 429). */
    private readonly exactBody?: string,
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The body of the answer: `{"error": message}`, or the exact body given. */
  get body(): string {
    return this.exactBody ?? errorBody(this.message);
  }

  /** The same error with more headers (those given win), e.g. the quota headers of the caller it refuses. */
  withHeaders(headers: Record<string, string>): HttpError {
    return new HttpError(this.status, this.message, { ...this.headers, ...headers }, this.exactBody);
  }

  toResponse(extraHeaders?: Record<string, string>): Response {
    return new Response(this.body, {
      status: this.status,
      headers: { "content-type": JSON_TYPE, ...this.headers, ...extraHeaders },
    });
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string, headers?: Record<string, string>) => new HttpError(401, message, headers);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string, headers?: Record<string, string>) => new HttpError(404, message, headers);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string) => new HttpError(413, message);

/** A 400 naming a body field (docs/product.md §4): `invalid field "name": must not be empty`. */
export const invalidField = (field: string, why: string) => badRequest(`invalid field "${field}": ${why}`);
/** A 400 naming a query parameter: `invalid query parameter "search": at most 500 characters`. */
export const invalidQueryParameter = (name: string, why: string) => badRequest(`invalid query parameter "${name}": ${why}`);

export function errorBody(message: string): string {
  return JSON.stringify({ error: message });
}

/**
 * A command-line failure: main prints `phrasebook: <message>` and exits with `exitCode`
 * (1 bad usage or a bad local file, 2 refused by a server, a setting or the data dir, 3 a check failed).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3 = 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}
