import { resolve } from "node:path";
import { CliError } from "../common/errors.ts";
import { loadSettings } from "../config/settings.ts";
import { backup } from "../ops/backup.ts";

/** `phrasebook backup FILE` (docs/product.md §1). */
export async function runBackup(file: string | undefined, flags: Record<string, string>): Promise<number> {
  if (!file) throw new CliError("backup needs a FILE to write, e.g. phrasebook backup /srv/backups/phrasebook.tar");
  const settings = loadSettings(process.env, flags);
  try {
    const summary = await backup(settings.dataDir, resolve(file));
    process.stdout.write(
      `wrote ${summary.file}: database, ${summary.releases} published release(s), ${summary.files} file(s), ${summary.bytes} bytes\n` +
        `restore: mkdir <empty data dir> && tar -xf ${summary.file} -C <empty data dir>\n`,
    );
    if (summary.missing.length) process.stdout.write(`note: ${summary.missing.length} release(s) were deleted during the backup\n`);
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT" || e.code === "EACCES" || e.code === "ENOTDIR") throw new CliError(`cannot write ${file}: ${e.code}`);
    throw err;
  }
}
