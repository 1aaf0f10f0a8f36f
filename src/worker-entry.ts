/** Where a worker thread starts when running from source (common/threads.ts); it serves its tasks. */
import { serveWorker } from "./dashboard-api/worker.ts";

serveWorker();
