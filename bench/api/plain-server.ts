/**
 * The floor of bench/api.bench.sh: a bare Bun.serve handler answering with a prebuilt Response
 * clone of one fixed JSON body (the API's own default-page answer, so both move the same bytes),
 * with none of the product's work (token hashing, quota, cache, metrics).
 *
 * Mode `reads` (the floor): it does the least any server of this API must do with a request, as the
 * CDN's floor does (bench/lib/bare-server.ts): find the answer by the URL's path and query in a Map,
 * and read the Authorization header and compare it with the one token; anything else is a 401.
 * Mode `blind` (for reference): it answers every request without reading it at all, which shows
 * what merely reading a request's URL and headers costs in Bun (they are built lazily).
 * With an ORIGIN (the Phrasebook server being measured), the ready answer carries the very headers
 * that server sends for a cache hit (X-RateLimit-*, X-Cache, Content-Type), so both answer the same
 * bytes, headers included.
 * Usage: bun bench/api/plain-server.ts PORT BODY_FILE [reads|blind] [TOKEN] [PATH_AND_QUERY] [ORIGIN]
 */
const [port, bodyFile, mode = "blind", token = "", target = "/v1/releases", origin] = process.argv.slice(2);
const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
const hitHeaders: Record<string, string> = { ...headers };
if (origin) {
  const res = await fetch(origin + target, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (res.headers.get("x-cache") !== "hit") throw new Error(`${origin}${target}: not a cache hit (${res.status})`);
  for (const [name, value] of res.headers) if (name !== "date" && name !== "content-length") hitHeaders[name] = value;
}
const ready = new Response(new Blob([await Bun.file(bodyFile!).bytes()]), { headers: hitHeaders });
const answers = new Map([[target, ready]]);
const authorization = `Bearer ${token}`;
const unauthorized = new Response('{"error":"invalid token"}', { status: 401, headers });
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch:
    mode === "blind"
      ? () => ready.clone()
      : (request) => {
          const url = request.url;
          const answer = answers.get(url.slice(url.indexOf("/", url.indexOf("//") + 2)));
          if (answer === undefined) return new Response('{"error":"not found"}', { status: 404, headers });
          return request.headers.get("authorization") === authorization ? answer.clone() : unauthorized.clone();
        },
});
console.log(JSON.stringify({ msg: "listening", port: Number(port), mode }));
