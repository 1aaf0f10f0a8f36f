/**
 * The floor of bench/startup.bench.sh, compiled with the same `bun build --compile` as Phrasebook:
 * `version` prints one line with console.log and exits (a compiled hello-world); `serve` listens on PHRASEBOOK_HOST
 * and PHRASEBOOK_PORT and answers GET /healthz with {"status":"ok"}, with nothing else to load.
 */
if (process.argv[2] === "serve") {
  Bun.serve({
    hostname: process.env.PHRASEBOOK_HOST ?? "127.0.0.1",
    port: Number(process.env.PHRASEBOOK_PORT ?? 8080),
    fetch: (request) => (new URL(request.url).pathname === "/healthz" ? Response.json({ status: "ok" }) : new Response("not found", { status: 404 })),
  });
  process.on("SIGTERM", () => process.exit(0));
} else {
  console.log("phrasebook-floor 0.0.0");
}
