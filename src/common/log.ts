/**
 * Structured logging: one JSON object per line on stdout. Callers pass fields, never secrets
 * (no token, cookie, password, webhook secret or webhook URL is ever a field). Standard output is
 * one per process, so this is the one piece of process-wide state.
 */
type Fields = Record<string, unknown>;

let enabled = true;

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
