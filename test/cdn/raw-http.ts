/**
 * Sends a request line exactly as written (fetch would normalise `..` and percent-escapes away),
 * and returns the status code and the whole response text. It needs a listening server: the
 * in-process app on loopback (test/helpers/listen.ts) or a server process.
 */
export async function rawRequest(port: number, target: string, method = "GET"): Promise<{ status: number; text: string }> {
  const chunks: Uint8Array[] = [];
  let done!: () => void;
  const closed = new Promise<void>((r) => (done = r));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, data) {
        chunks.push(new Uint8Array(data));
      },
      close() {
        done();
      },
      error() {
        done();
      },
    },
  });
  socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  await Promise.race([closed, Bun.sleep(5000)]);
  socket.end();
  const text = Buffer.concat(chunks).toString("latin1");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, text };
}
