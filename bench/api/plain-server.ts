/**
 * The baseline of bench/api.bench.sh: a bare Bun.serve handler answering every request with one
 * fixed JSON body (the API's own default-page answer, so both move the same bytes).
 * Usage: bun bench/api/plain-server.ts PORT BODY_FILE
 */
const [port, bodyFile] = process.argv.slice(2);
const body = await Bun.file(bodyFile!).text();
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
});
console.log(JSON.stringify({ msg: "listening", port: Number(port) }));
