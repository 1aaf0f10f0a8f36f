import type { Db } from "../storage/db.ts";
import { compareCodePoints } from "./compile/order.ts";

/**
 * CONTRACTS 3: publishing snapshots, at that moment, every language of the project and every
 * key's current translation. Read in one synchronous pass, so no edit can land half-way (the
 * server's JavaScript runs one request at a time between awaits).
 */
export interface SnapshotLanguage {
  code: string;
  name: string;
  isBase: boolean;
  /** Aligned with Snapshot.keys; undefined where the key has no translation in this language. */
  values: (string | undefined)[];
}

export interface Snapshot {
  keys: string[]; // code-point order
  contexts: Map<string, string | null>;
  languages: SnapshotLanguage[];
}

export function takeSnapshot(db: Db, projectId: number): Snapshot {
  const sqlite = db.$client;
  const project = sqlite.query<{ base: string }, [number]>("SELECT base_language_code AS base FROM projects WHERE id = ?").get(projectId);
  if (!project) throw new Error(`project ${projectId} vanished`);
  const keyRows = sqlite
    .query<{ id: number; key: string; context: string | null }, [number]>("SELECT id, key, context FROM translation_keys WHERE project_id = ?")
    .all(projectId)
    .sort((a, b) => compareCodePoints(a.key, b.key));
  const position = new Map<number, number>();
  keyRows.forEach((k, i) => position.set(k.id, i));
  const langRows = sqlite
    .query<{ id: number; code: string; name: string }, [number]>("SELECT id, code, name FROM languages WHERE project_id = ? ORDER BY code")
    .all(projectId);
  const valuesOf = sqlite.query<[number, string], [number]>("SELECT key_id, value FROM translations WHERE language_id = ?");
  const languages = langRows.map((l) => {
    const values = new Array<string | undefined>(keyRows.length);
    for (const [keyId, value] of valuesOf.values(l.id) as [number, string][]) {
      const at = position.get(keyId);
      if (at !== undefined) values[at] = value;
    }
    return { code: l.code, name: l.name, isBase: l.code === project.base, values };
  });
  return {
    keys: keyRows.map((k) => k.key),
    contexts: new Map(keyRows.map((k) => [k.key, k.context])),
    languages,
  };
}
