/**
 * One error family for every capability: services throw an HttpError, the app's single onError
 * turns it into `{"error": message}` with its status. Anything else is a bug: logged once, answered
 * as a generic 500 that never carries the cause.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export function errorBody(message: string): string {
  return JSON.stringify({ error: message });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(message), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
