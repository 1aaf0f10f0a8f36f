/**
 * Shared steps of the tests that publish and fetch files, in-process: the app with a signed-in
 * admin on a clock the test moves, releases, slugs, imports, download URLs and raw answers.
 */
import { ManualClock, ORIGIN, testApp, type TestApp, type TestAppOptions } from "./app.ts";
import type { DashboardClient } from "./dashboard-client.ts";

export interface CdnFixture {
  t: TestApp;
  admin: DashboardClient;
  /** Moves only when a test moves it: a test that compares publish times advances it between publishes. */
  clock: ManualClock;
}

export async function cdnFixture(options: Omit<TestAppOptions, "clock"> = {}): Promise<CdnFixture> {
  const clock = new ManualClock();
  const t = await testApp({ ...options, clock });
  return { t, admin: await t.login(), clock };
}

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

/** `{cdn_url}/p/{projectSlug}/r/latest/{code}.{ext}` for the default CDN URL of the test settings. */
export function latestUrl(slug: string, code: string, ext = "json"): string {
  return `${ORIGIN}/cdn/p/${slug}/r/latest/${code}.${ext}`;
}

export function url(file: { download_urls: Record<string, string> }, ext: "json" | "yaml" | "arb" = "json"): string {
  return file.download_urls[ext]!;
}

export function lang(release: any, code: string): any {
  const found = release.languages.find((l: any) => l.code === code);
  if (!found) throw new Error(`release has no ${code}`);
  return found;
}

/** A CDN slug (interface §2.7): 16 letters and digits. */
export const SLUG = /^[0-9A-Za-z]{16}$/;

/** The answer's bytes exactly as the app sends them (in-process nothing decompresses them). */
export async function fetchRaw(t: TestApp, target: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
  const res = await t.fetch(target, { method, headers });
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
}
