/** docs/interface.md §6.5: response bodies are logged up to 8 KB; longer ones are cut and flagged. */
export const LOGGED_BODY_LIMIT_BYTES = 8192;

export interface CappedBody {
  text: string;
  truncated: boolean;
}

/**
 * Reads at most LOGGED_BODY_LIMIT_BYTES of a response and then drops the connection, so a 10 MB
 * or never-ending body costs one network chunk of memory, not its length. A body cut short by the
 * timeout or a reset keeps what arrived and counts as truncated.
 */
export async function readCappedBody(response: Response): Promise<CappedBody> {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const kept = new Uint8Array(LOGGED_BODY_LIMIT_BYTES);
  let length = 0;
  let truncated = false;
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      const room = LOGGED_BODY_LIMIT_BYTES - length;
      if (value.byteLength > room) {
        kept.set(value.subarray(0, room), length);
        length += room;
        truncated = true;
        break;
      }
      kept.set(value, length);
      length += value.byteLength;
    }
  } catch {
    truncated = true;
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
  return { text: new TextDecoder().decode(kept.subarray(0, length)), truncated };
}
