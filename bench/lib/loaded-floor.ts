/**
 * The floor with Phrasebook's program in memory, for bench/cdn.bench.sh (docs/cdn.md "Speed"):
 * opens the app exactly as `phrasebook serve` does before it listens (storage, migrations, every
 * route built; src/server.ts `openApp`) and keeps it, then answers like bench/lib/bare-server.ts
 * and nothing else. The app never sees a request. What this row loses against the bare floor is
 * the price of the program being in the heap (the garbage collector walks all of it), not of any
 * work on the request path; what Phrasebook loses against this row is its request path.
 * Built into an executable the way `make build` builds Phrasebook, so the heap is the same shape.
 * Usage: loaded-floor <port> <spec json> [origin], with PHRASEBOOK_DATA_DIR set (a copy).
 */
import { loadSettings } from "../../src/config/settings.ts";
import { openApp } from "../../src/server.ts";

const opened = await openApp(loadSettings(process.env, {}));
// Kept reachable for the life of the process, as the server keeps its app.
(globalThis as { phrasebook?: unknown }).phrasebook = opened;
await import("./bare-server.ts");
