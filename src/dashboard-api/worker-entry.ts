/** Where a worker thread of the dashboard API starts when running from source (worker.ts). */
import { serveWorker } from "./worker.ts";

serveWorker();
