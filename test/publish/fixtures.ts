/** Shared steps of the publishing tests: releases, slugs, imports, download URLs. */
import type { DashboardClient } from "../helpers/dashboard-client.ts";

/** Creates a draft and publishes it; returns the published release detail. */
export async function publish(c: DashboardClient, pid: string, tag: string, name = `Release ${tag}`): Promise<any> {
  const draft = await c.post(`/projects/${pid}/releases`, { name, tag });
  if (draft.status !== 201) throw new Error(`release create failed: ${JSON.stringify(draft.body)}`);
  const published = await c.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
  if (published.status !== 200) throw new Error(`publish failed: ${published.status} ${JSON.stringify(published.body)}`);
  return published.body;
}

export async function projectSlug(c: DashboardClient, pid: string): Promise<string> {
  return (await c.get(`/projects/${pid}`)).body.cdn_slug;
}

export async function importJson(c: DashboardClient, pid: string, code: string, values: Record<string, string>): Promise<void> {
  const r = await c.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: JSON.stringify(values) });
  if (r.status !== 200) throw new Error(`import failed: ${r.status} ${JSON.stringify(r.body)}`);
}

export function url(file: { download_urls: Record<string, string> }, ext: "json" | "yaml" | "arb" = "json"): string {
  return file.download_urls[ext]!;
}

export function lang(release: any, code: string): any {
  const found = release.languages.find((l: any) => l.code === code);
  if (!found) throw new Error(`release has no ${code}`);
  return found;
}

export const SLUG = /^[0-9A-Za-z]{16}$/;
