/**
 * Small pieces of HTTP that more than one capability needs: where the path of a request URL starts
 * (the hot paths read it without building a URL object), content negotiation for compressed
 * answers, and conditional requests.
 */

/** Index of the path in an absolute URL string (`http://host:port/path?q` -> index of `/path`), or -1. */
export function pathStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/** The path of an absolute URL string, without its query. */
export function pathOf(url: string): string {
  const start = pathStart(url);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/** The path and query of an absolute URL string, exactly as sent (`/v1/releases?page=2`). */
export function pathAndQueryOf(url: string): string {
  const start = pathStart(url);
  return start < 0 ? "/" : url.slice(start);
}

export type Encoding = "identity" | "gzip" | "br";

/**
 * Accept-Encoding (RFC 9110 12.5.3): the coding with the highest q-value wins, ties go to br, then
 * gzip, then identity; q=0 refuses a coding, `*` stands for codings not named.
 */
const MEMO_MAX_ENTRIES = 256;

const PREFERENCE: Encoding[] = ["br", "gzip", "identity"];

function parseAcceptEncoding(header: string): Encoding {
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [rawName, ...params] = part.split(";");
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) weight = Math.min(1, Number(m[1]) || 0);
    }
    q.set(name === "x-gzip" ? "gzip" : name, weight);
  }
  const star = q.get("*");
  let best: Encoding = "identity";
  let bestQ = -1;
  for (const coding of PREFERENCE) {
    // identity stays acceptable unless refused by name: we would send it rather than a 406.
    const weight = q.get(coding) ?? (coding === "identity" ? 0.001 : (star ?? 0));
    if (weight > bestQ && (weight > 0 || coding === "identity")) {
      best = coding;
      bestQ = weight;
    }
  }
  return best;
}

export function preferredEncoding(header: string | null): Encoding {
  if (header === null || header === "") return "identity";
  return parseAcceptEncoding(header);
}

/**
 * `preferredEncoding` for a hot path: clients send only a handful of distinct header values, so
 * answers are remembered (at most MEMO_MAX_ENTRIES, forgotten all at once when full) and a repeat
 * is one Map lookup. Owned by its caller (the CDN of one app), never shared across apps.
 */
export class EncodingChooser {
  private readonly memo = new Map<string, Encoding>();

  choose(header: string | null): Encoding {
    if (header === null || header === "") return "identity";
    let found = this.memo.get(header);
    if (found === undefined) {
      found = parseAcceptEncoding(header);
      if (this.memo.size >= MEMO_MAX_ENTRIES) this.memo.clear();
      this.memo.set(header, found);
    }
    return found;
  }
}

/**
 * If-None-Match (RFC 9110 13.1.2): `*` or any listed tag equal to ours under weak comparison
 * (a `W/` prefix is ignored).
 */
export function etagMatches(header: string, etag: string): boolean {
  if (header === etag) return true;
  for (const raw of header.split(",")) {
    const tag = raw.trim();
    if (tag === "*" || tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) return true;
  }
  return false;
}

/**
 * Reads a body of at most `max` bytes: past that, the read stops, the rest is never read, and
 * `tooLarge()` is thrown (a request's 413, an engine's answer refused). Null reads as empty.
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
