/**
 * Probe behind docs/cdn.md "Speed" (why CDN files are not sent with sendfile): a Bun.serve handler
 * answering one file either from memory (a prebuilt Blob-backed Response, cloned: what the CDN
 * does) or as `new Response(Bun.file(path))` per request (what would let Bun use sendfile(2)).
 * Usage: bun bench/lib/file-response-probe.ts <port> blob|file <path>
 * Then, e.g.: taskset -c 1 wrk -t1 -c64 -d3s http://127.0.0.1:<port>/ with the server under
 * `taskset -c 0`, CPU time per request from /proc/<pid>/stat, and `strace -f -c -p <pid>` to see
 * which system calls answer (read + sendmsg, or sendfile).
 */
const [port, mode, path] = process.argv.slice(2);
if (!port || (mode !== "blob" && mode !== "file") || !path) throw new Error("usage: file-response-probe.ts <port> blob|file <path>");
const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=31536000, immutable", etag: '"probe"' };
const ready = new Response(new Blob([await Bun.file(path).bytes()]), { headers });
const file = Bun.file(path);
const fileHeaders = new Headers(headers);
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch(request) {
    request.headers.get("accept-encoding");
    return mode === "blob" ? ready.clone() : new Response(file, { headers: fileHeaders });
  },
});
console.log(`listening on ${port}, ${mode}, ${file.size} bytes`);
