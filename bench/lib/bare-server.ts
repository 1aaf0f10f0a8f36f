/**
 * The floor for bench/cdn.bench.sh: a bare Bun.serve handler answering the same files from memory
 * (a Map from path to a ready Response, cloned per request; gzip when asked), with none of the
 * product's work (negotiation, ETags, 304s, metrics). Usage: bun bare-server.ts <port> <spec json>
 * where the spec maps URL paths to files on disk.
 */
const [port, spec] = process.argv.slice(2);
const files = JSON.parse(spec!) as Record<string, string>;
const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "public, max-age=31536000, immutable",
  "access-control-allow-origin": "*",
  vary: "Accept-Encoding",
};
const identity = new Map<string, Response>();
const gzipped = new Map<string, Response>();
for (const [path, file] of Object.entries(files)) {
  identity.set(path, new Response(new Blob([await Bun.file(file).arrayBuffer()]), { headers: HEADERS }));
  gzipped.set(path, new Response(new Blob([await Bun.file(`${file}.gz`).arrayBuffer()]), { headers: { ...HEADERS, "content-encoding": "gzip" } }));
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
