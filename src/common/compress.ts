/**
 * Compression runs once per file (a CDN bundle on its first request, then kept on disk beside it;
 * a built-in asset on its first request), never per request, and off the main thread. Small files
 * get the slowest, tightest settings; large ones settings that finish in tens of milliseconds, so
 * the first reader of a big file is not kept waiting.
 */
export const GZIP_LEVEL_SMALL = 9;
/**
 * Above the small size, gzip 6 and Brotli 5: measured on an 8 MB bundle of 100,000 strings (a
 * release of the size docs/publishing.md §7 sets), gzip 9 took 92 ms and 6 took 32 ms for 6% more bytes; Brotli 6
 * took 130 ms and 5 took 43 ms for about as many bytes (2% fewer there). A `pull` of 50 such files
 * waits for every first compression, so the faster settings are what its figure is made of
 * (bench/RESULTS.md "Scale").
 */
export const GZIP_LEVEL_LARGE = 6;
export const BROTLI_QUALITY_SMALL = 11;
export const BROTLI_QUALITY_LARGE = 5;
export const SMALL_FILE_MAX_BYTES = 64 * 1024;
/**
 * Built-in assets (the dashboard's script and styles) are compressed once per process and read by
 * every browser that opens the dashboard: the tightest setting pays for itself up to this size.
 */
export const BROTLI_ASSET_MAX_BYTES = 256 * 1024;

/**
 * node:zlib, loaded on the first compression rather than at start: the module brings Node's stream
 * machinery with it, nearly 20 ms of CPU that starting the server does not need (bench/RESULTS.md
 * "Start-up").
 */
let zlibLoaded: Promise<typeof import("node:zlib")> | undefined;
const loadZlib = () => (zlibLoaded ??= import("node:zlib"));

/** The bytes a zlib call hands to its callback, as a promise. */
function settled(run: (done: (err: Error | null, out: Buffer) => void) => void): Promise<Uint8Array> {
  return new Promise((resolve, reject) => run((err, out) => (err ? reject(err) : resolve(new Uint8Array(out)))));
}

export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  const zlib = await loadZlib();
  const level = data.length <= SMALL_FILE_MAX_BYTES ? GZIP_LEVEL_SMALL : GZIP_LEVEL_LARGE;
  return settled((done) => zlib.gzip(data, { level }, done));
}

export async function brotli(data: Uint8Array, smallMaxBytes = SMALL_FILE_MAX_BYTES): Promise<Uint8Array> {
  const zlib = await loadZlib();
  const quality = data.length <= smallMaxBytes ? BROTLI_QUALITY_SMALL : BROTLI_QUALITY_LARGE;
  const params = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
  };
  return settled((done) => zlib.brotliCompress(data, { params }, done));
}
