/**
 * The floor for bench/cdn.bench.sh: a bare Bun.serve handler answering the same files from memory
 * (a Map from path to a ready Response, cloned per request; gzip when asked), with none of the
 * product's work (negotiation, ETags, 304s, metrics). Usage: bun bare-server.ts <port> <spec json>
 * [origin], where the spec maps URL paths to files on disk. With an origin (the Phrasebook server
 * being measured), each ready Response carries the very headers that server sends for that path
 * and encoding (ETag, CORS, Cache-Control...), so both answer the same bytes, headers included;
 * without one, a fixed set of four.
 */
const [port, spec, origin] = process.argv.slice(2);
const files = JSON.parse(spec!) as Record<string, string>;
const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "public, max-age=31536000, immutable",
  "access-control-allow-origin": "*",
  vary: "Accept-Encoding",
};
/** The headers `origin` answers `path` with in one encoding, less those Bun.serve writes itself. */
async function headersOf(path: string, encoding: "identity" | "gzip"): Promise<Record<string, string>> {
  if (!origin) return encoding === "gzip" ? { ...HEADERS, "content-encoding": "gzip" } : HEADERS;
  const res = await fetch(origin + path, { headers: { "accept-encoding": encoding }, decompress: false } as RequestInit);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${origin}${path}: ${res.status}`);
  const out: Record<string, string> = {};
  for (const [name, value] of res.headers) if (name !== "date" && name !== "content-length") out[name] = value;
  return out;
}
const identity = new Map<string, Response>();
const gzipped = new Map<string, Response>();
for (const [path, file] of Object.entries(files)) {
  identity.set(path, new Response(new Blob([await Bun.file(file).arrayBuffer()]), { headers: await headersOf(path, "identity") }));
  gzipped.set(path, new Response(new Blob([await Bun.file(`${file}.gz`).arrayBuffer()]), { headers: await headersOf(path, "gzip") }));
}
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch(request) {
    const url = request.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const gzip = request.headers.get("accept-encoding")?.includes("gzip");
    return (gzip ? gzipped : identity).get(path)?.clone() ?? new Response("not found", { status: 404 });
  },
});
console.log("listening");
