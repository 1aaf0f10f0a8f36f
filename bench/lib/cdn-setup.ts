/**
 * CDN benchmark setup (docs/cdn.md "Speed"): publishes a ~2 KB bundle (en) and a ~200 KB bundle
 * (de) on a running server, points a channel at the release, fetches every file once in each encoding (so the compressed variants
 * exist and the cache is warm), and prints the URLs and file locations the shell script needs, as
 * JSON.
 * Usage: bun bench/lib/cdn-setup.ts <server url> <data dir>
 */
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";

const [serverUrl, dataDir] = process.argv.slice(2);
if (!serverUrl || !dataDir) throw new Error("usage: cdn-setup.ts <server url> <data dir>");

const SMALL_BYTES = 2 * 1024;
const LARGE_BYTES = 200 * 1024;

function bundle(targetBytes: number, label: string): Record<string, string> {
  const out: Record<string, string> = {};
  let size = 2;
  for (let i = 0; size < targetBytes; i++) {
    const key = `screen${i % 20}.item_${i}`;
    const value = `${label} ${i}: Your order was shipped and will arrive soon`;
    out[key] = value;
    size += JSON.stringify(key).length + JSON.stringify(value).length + 6;
  }
  return out;
}

const admin = await DashboardClient.loggedIn(serverUrl, process.env.PHRASEBOOK_ADMIN_EMAIL, process.env.PHRASEBOOK_ADMIN_PASSWORD);
const project = await admin.post("/projects", { name: "CDN bench", base_language_code: "en" });
const pid = project.body.id;
await admin.post(`/projects/${pid}/languages`, { code: "de" });
for (const [code, bytes] of [["en", SMALL_BYTES], ["de", LARGE_BYTES]] as const) {
  const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: JSON.stringify(bundle(bytes, code)) });
  if (r.status !== 200) throw new Error(`import failed: ${JSON.stringify(r.body)}`);
}
const draft = await admin.post(`/projects/${pid}/releases`, { name: "Bench", tag: "bench" });
const release = (await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).body;
const slug = (await admin.get(`/projects/${pid}`)).body.cdn_slug;
// A channel on the release (docs/releases.md "Channels"). A server from before channels (a
// BASELINE_REV) has none: its channel rows then use its latest path, the same bytes and headers.
const channel = await admin.put(`/projects/${pid}/channels/bench`, { release_id: release.id });
const channelSlug: string | null = channel.status === 201 ? channel.body.slug : null;

const files: Record<string, unknown> = {};
for (const code of ["en", "de"]) {
  const pinned = release.languages.find((l: { code: string }) => l.code === code).download_urls.json as string;
  const latest = pinned.replace(`/r/${release.slug}/`, "/r/latest/");
  const onChannel = channelSlug ? pinned.replace(`/r/${release.slug}/`, `/c/${channelSlug}/`) : latest;
  for (const u of [pinned, latest, onChannel]) {
    for (const encoding of ["identity", "gzip", "br"]) {
      const res = await fetch(u, { headers: { "accept-encoding": encoding }, decompress: false } as RequestInit);
      if (res.status !== 200) throw new Error(`${u}: ${res.status}`);
      await res.arrayBuffer();
    }
  }
  const bytes = (await (await fetch(pinned, { headers: { "accept-encoding": "identity" } })).arrayBuffer()).byteLength;
  files[code] = {
    bytes,
    pinned_path: new URL(pinned).pathname,
    latest_path: new URL(latest).pathname,
    channel_path: new URL(onChannel).pathname,
    file: `${dataDir}/releases/${release.id}/${code}.json`,
  };
}
console.log(JSON.stringify({ project_slug: slug, release_slug: release.slug, files }));
