/**
 * The in-process app (test/helpers/app.ts) on a real socket, for the few checks that are about the
 * HTTP layer itself rather than the app's rules: a request line sent exactly as written (`fetch`
 * and `Request` resolve `..` and escapes before anything is sent), and HEAD (Bun's server, not the
 * app, drops the body and keeps Content-Length). Bun.serve is set up as src/server.ts sets it up,
 * on a free loopback port, inside the test process: no process is started.
 */
import { MAX_REQUEST_BODY_BYTES } from "../../src/server.ts";
import type { TestApp } from "./app.ts";

export interface Listening {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function listen(t: TestApp): Listening {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    fetch: (request, srv) => t.app.handle(request, (r) => srv.requestIP(r)?.address),
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    stop: () => server.stop(true),
  };
}
