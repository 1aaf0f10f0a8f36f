/**
 * Structured logging: one JSON object per line on stdout. Callers pass fields, never secrets;
 * `redact` strips the header values that carry credentials before anything is written.
 */
type Fields = Record<string, unknown>;

let enabled = true;
export function setLogging(on: boolean): void {
  enabled = on;
}

// A closed stdout (a pipe whose reader went away) must not take the server down with EPIPE:
// stop logging instead, and keep serving.
process.stdout.on?.("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") enabled = false;
  else throw err;
});

export function loggingEnabled(): boolean {
  return enabled;
}

function write(level: string, msg: string, fields: Fields): void {
  if (!enabled) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  process.stdout.write(line + "\n");
}

export const log = {
  info: (msg: string, fields: Fields = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Fields = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Fields = {}) => write("error", msg, fields),
};

const SECRET_HEADERS = new Set(["authorization", "cookie", "set-cookie", "x-csrf-token"]);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? "[redacted]" : v;
  return out;
}
