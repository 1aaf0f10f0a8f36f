/**
 * A TCP connection to a server on loopback that keeps every byte it receives: for tests that must
 * write requests exactly as they are (path tricks fetch would normalise, bursts split to land at
 * the same moment). `closed` settles when the server closes the connection or it fails.
 */
export interface RawSocket {
  socket: Awaited<ReturnType<typeof Bun.connect>>;
  closed: Promise<void>;
  /** Everything received so far. */
  received(): Buffer;
}

export async function openRawSocket(port: number): Promise<RawSocket> {
  const chunks: Uint8Array[] = [];
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, data) {
        chunks.push(new Uint8Array(data));
      },
      close: () => done(),
      error: () => done(),
    },
  });
  return { socket, closed, received: () => Buffer.concat(chunks) };
}
