/**
 * A TCP connection to a server on loopback that keeps every byte it receives: for tests that must
 * write requests exactly as they are (path tricks fetch would normalise, bursts split to land at
 * the same moment, a body sent only once the server said `100 Continue`). `closed` settles when
 * the server closes the connection or it fails.
 */
export interface RawSocket {
  socket: Awaited<ReturnType<typeof Bun.connect>>;
  closed: Promise<void>;
  /** Everything received so far. */
  received(): Buffer;
  /** Waits until what was received holds `text` (true), or the connection closed first (false). */
  receivedText(text: string): Promise<boolean>;
  /** Writes all of `bytes`, waiting whenever the socket's buffer is full; the bytes written before the connection closed. */
  writeAll(bytes: Uint8Array): Promise<number>;
}

export async function openRawSocket(port: number): Promise<RawSocket> {
  const chunks: Uint8Array[] = [];
  let done!: () => void;
  let isClosed = false;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const closed = new Promise<void>((resolve) => (done = resolve));
  const ended = () => {
    isClosed = true;
    done();
    nudge();
  };
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, data) {
        chunks.push(new Uint8Array(data));
        nudge();
      },
      drain: () => nudge(),
      close: ended,
      error: ended,
    },
  });
  const received = () => Buffer.concat(chunks);
  const next = () => new Promise<void>((resolve) => (wake = resolve));
  return {
    socket,
    closed,
    received,
    async receivedText(text) {
      while (!received().includes(text)) {
        if (isClosed) return false;
        await next();
      }
      return true;
    },
    async writeAll(bytes) {
      let at = 0;
      while (at < bytes.length && !isClosed) {
        const n = socket.write(bytes.subarray(at));
        at += Math.max(n, 0);
        if (at < bytes.length) await next();
      }
      return at;
    },
  };
}
