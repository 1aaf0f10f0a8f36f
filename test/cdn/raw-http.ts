import { openRawSocket } from "../helpers/raw-socket.ts";

/**
 * Sends a request line exactly as written (fetch would normalise `..` and percent-escapes away),
 * and returns the status code and the whole response text. It needs a listening server: the
 * in-process app on loopback (test/helpers/listen.ts) or a server process.
 */
export async function rawRequest(port: number, target: string, method = "GET"): Promise<{ status: number; text: string }> {
  const raw = await openRawSocket(port);
  raw.socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  await Promise.race([raw.closed, Bun.sleep(5000)]);
  raw.socket.end();
  const text = raw.received().toString("latin1");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, text };
}
