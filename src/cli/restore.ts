import { loadSettings } from "../config/settings.ts";
import { restoreFromReplica } from "../replication/restore.ts";

/** `phrasebook restore` (docs/deploy.md "Restore drill"). */
export async function runRestore(flags: Record<string, string>): Promise<number> {
  const settings = loadSettings(process.env, flags);
  const started = performance.now();
  const summary = await restoreFromReplica(settings);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `restored ${summary.dataDir} from ${settings.replicaUrl}: database, ${summary.releases} published release(s), ${summary.files} file(s), ${summary.bytes} bytes in ${seconds} s\n` +
      `start the server on it: phrasebook serve --data-dir ${summary.dataDir}\n` +
      // What the last second took from the database may have reached the bucket (docs/deploy.md
      // "Restore drill").
      (settings.s3Bucket ? `then, with it running, make the bucket what it serves: phrasebook mirror sync --data-dir ${summary.dataDir}\n` : ""),
  );
  return 0;
}
