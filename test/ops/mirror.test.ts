/**
 * The mirror run by the compiled executable (docs/deploy.md "Object storage and CDN purge"),
 * against s3rver on loopback: a server killed in the middle of a copy resumes after its restart
 * and the bucket ends up as the CDN; `phrasebook mirror sync` rebuilds an emptied bucket while the
 * server runs, deletes what the CDN would not serve (or keeps it with `--no-delete`) and exits 2
 * when the store refuses; the bucket's keys and the purge token never appear in the log, an answer
 * or /metrics; and the restore drill from the bucket alone (docs/deploy.md "Restore drill"):
 * Litestream's replica, the replica's release copies and the mirror in one s3rver bucket, the
 * machine lost in the middle of writes (SIGKILL, data dir deleted), `phrasebook restore` from the
 * bucket: every pinned URL answers the same bytes at the server and in the bucket, no write
 * acknowledged more than a second before the loss is missing, and the mirror goes on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { BUCKET, bucketObject, bucketPaths, expectBucketIsCdn, mirrored, mirrorEnv, servedPaths } from "../helpers/mirror.ts";
import { cloudflareStandIn } from "../helpers/purge-standins.ts";
import { projectSlug as projectSlugOf } from "../helpers/releases.ts";
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, startListingProxy, startS3, type S3Server } from "../helpers/s3.ts";
import { ROOT, serverCommand, startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

const DRILL_KEYS = 20;
const DRILL_WRITE_SECONDS = 3;
const DRILL_PUBLISH_EVERY_MS = 1000;

let s3: S3Server;
const servers: TestServer[] = [];
const work = tempDir("phrasebook-mirror-");
beforeAll(async () => {
  s3 = await startS3([BUCKET]);
});
afterAll(async () => {
  for (const s of servers) await s.kill().catch(() => {});
  await s3.close();
  rmSync(work, { recursive: true, force: true });
});

async function start(env: Record<string, string>, dataDir: string, options: { ownProcessGroup?: boolean } = {}): Promise<TestServer> {
  const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false", ...env }, keepDataDir: true, ...options });
  servers.push(server);
  return server;
}

const cdnOf = (server: TestServer) => (path: string) => fetch(`${server.url}/cdn/${path}`, { headers: { "accept-encoding": "identity" } });

async function walk(server: TestServer, admin: DashboardClient, prefix: string, ...pids: string[]): Promise<void> {
  await mirrored((sql) => server.query(sql));
  const paths = (await Promise.all(pids.map((pid) => servedPaths(admin, pid, cdnOf(server))))).flat();
  await expectBucketIsCdn(s3, prefix, paths, cdnOf(server));
}

/** `phrasebook <args>` with the server's settings: exit code and output. */
async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([...serverCommand(), ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

/**
 * A door between the server and the store that can hold every request, unanswered: the server is
 * then in the middle of its copies. Everything else passes through to s3rver as sent.
 */
function door() {
  let holding = false;
  const held: (() => void)[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      if (holding) {
        await new Promise<void>((resolve) => held.push(resolve));
        return new Response(null, { status: 503 });
      }
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      const res = await fetch(`${s3.endpoint}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
      return new Response(res.body, { status: res.status, headers: res.headers });
    },
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    held: () => held.length,
    hold: () => void (holding = true),
    open() {
      holding = false;
      for (const release of held.splice(0)) release();
    },
    stop: () => server.stop(true),
  };
}

describe("the mirror, run by the executable", () => {
  test("a server stopped, or killed, in the middle of its copies does not wait for the store and copies everything after its restart", { timeout: 60_000 }, async () => {
    const dataDir = join(work, "killed");
    const prefix = "killed";
    const gate = door();
    const env = mirrorEnv(s3, prefix, { PHRASEBOOK_S3_ENDPOINT: gate.endpoint });
    let server = await start(env, dataDir);
    try {
      let admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Killed", "en", ["de", "fr"]);
      const keyId = await admin.key(pid, "k", { en: "K", de: "K-de", fr: "K-fr" });
      const publish = async (tag: string) => {
        const draft = await admin.post(`/projects/${pid}/releases`, { name: tag, tag });
        expect((await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
      };
      const waiting = () => server.query<{ n: number }>("SELECT count(*) AS n FROM mirror_queue WHERE done = 0")[0]!.n;

      // Stopped (SIGTERM) while the store holds its requests unanswered: the stop does not wait for them.
      gate.hold();
      await publish("v1");
      await eventually(() => gate.held() >= 1, { what: "a copy under way" });
      await server.stop();
      expect(gate.held()).toBeGreaterThan(0); // still unanswered: the server ended them and left
      // Nothing was copied; nothing is lost: 3 languages x 3 formats pinned and latest, both
      // manifests with their signatures, keys/1.pub and key.pub.
      expect(waiting()).toBe(24);
      gate.open();
      server = await start(env, dataDir);
      admin = await DashboardClient.loggedIn(server.url);
      await walk(server, admin, prefix, pid);

      // Killed (SIGKILL) in the middle of a copy.
      await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "K-de-2" });
      gate.hold();
      await publish("v2");
      await eventually(() => gate.held() >= 1, { what: "a copy under way" });
      await server.kill("SIGKILL");
      gate.open();
      expect(waiting()).toBeGreaterThan(0);
      server = await start(env, dataDir);
      admin = await DashboardClient.loggedIn(server.url);
      await walk(server, admin, prefix, pid);
      await server.stop();
    } finally {
      await gate.stop();
    }
  });

  test("mirror sync rebuilds an emptied bucket while the server runs, deletes what the CDN would not serve, and says when the store refuses", { timeout: 60_000 }, async () => {
    const dataDir = join(work, "sync");
    const prefix = "sync";
    const env = mirrorEnv(s3, prefix);
    const server = await start(env, dataDir);
    const admin = await DashboardClient.loggedIn(server.url);
    const pid = await admin.project("Synced", "en", ["de"]);
    await admin.key(pid, "k", { en: "K", de: "K-de" });
    const draft = await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" });
    const v1 = (await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).body;
    await admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    expect((await admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
    await walk(server, admin, prefix, pid);
    const served = await bucketPaths(s3, prefix);
    // 2 languages x 3 formats pinned, latest and beta; each place's manifest and signature; key.pub,
    // keys/1.pub, keys/2.pub and its signature by key 1.
    expect(served.length).toBe(28);
    expect(served).toContain(`p/${await projectSlugOf(admin, pid)}/keys/2.pub.minisig`);

    // The bucket emptied, a stale object and a stray one put there by hand.
    const client = s3.client(BUCKET);
    for (const path of served) await client.delete(`${prefix}/${path}`);
    await client.write(`${prefix}/${served[0]}`, "stale");
    await client.write(`${prefix}/p/gone/r/latest/xx.json`, "stray");
    await client.write("elsewhere/keep.txt", "not under the prefix");
    const settings = { ...server.env, ...env };
    let result = await run(["mirror", "sync"], settings);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toBe(`mirror sync of ${BUCKET}/${prefix}: 28 object(s) served, 28 copied, 1 deleted, 0 failed\n`);
    await expectBucketIsCdn(s3, prefix, await servedPaths(admin, pid, cdnOf(server)), cdnOf(server));
    expect((await bucketObject(s3, "elsewhere/keep.txt")).status).toBe(200);

    result = await run(["mirror", "sync"], settings); // nothing left to do
    expect(result.out).toBe(`mirror sync of ${BUCKET}/${prefix}: 28 object(s) served, 0 copied, 0 deleted, 0 failed\n`);
    await client.write(`${prefix}/p/gone/r/latest/xx.json`, "stray");
    result = await run(["mirror", "sync", "--no-delete"], settings);
    expect(result.code).toBe(0);
    expect(result.out).toContain(", 0 deleted, 1 the CDN would not serve kept (--no-delete), 0 failed");
    expect((await bucketObject(s3, `${prefix}/p/gone/r/latest/xx.json`)).status).toBe(200);

    // A store that refuses the keys: one line, exit 2; no mirror configured: one line naming the setting.
    result = await run(["mirror", "sync"], { ...settings, PHRASEBOOK_S3_ACCESS_KEY_ID: "nobody" });
    expect(result.code).toBe(2);
    expect(result.err).toBe("phrasebook: the bucket cdn cannot be read: GET answered 403 InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.\n");
    result = await run(["mirror", "sync"], { ...settings, PHRASEBOOK_S3_BUCKET: "", PHRASEBOOK_S3_ENDPOINT: "" });
    expect(result.code).toBe(2);
    expect(result.err).toContain("phrasebook: PHRASEBOOK_S3_BUCKET is not set");
    result = await run(["mirror", "copy"], settings);
    expect(result.err).toBe('phrasebook: unknown command "mirror copy"; did you mean "mirror sync"?\n');
    await server.stop();
  });

  test("the bucket's keys and the purge token appear in no log line, answer or /metrics, even when the store and the purge API echo them", { timeout: 60_000 }, async () => {
    const token = "cf-token-that-must-not-leak";
    const cf = cloudflareStandIn("zone-9", token);
    // The purge API fails, echoing what it was sent, until the test has seen it.
    cf.failNext(1000, 500, `{"success":false,"errors":[{"message":"bad token ${token}"}]}`);
    const env = mirrorEnv(s3, "leaks", {
      PHRASEBOOK_S3_ACCESS_KEY_ID: "AKIA-UNKNOWN-KEY-ID",
      PHRASEBOOK_S3_SECRET_ACCESS_KEY: "secret-access-key-that-must-not-leak",
      PHRASEBOOK_PURGE: "cloudflare",
      PHRASEBOOK_PURGE_ZONE: "zone-9",
      PHRASEBOOK_PURGE_TOKEN: token,
      PHRASEBOOK_PURGE_API: cf.api,
      PHRASEBOOK_LOG_REQUESTS: "true",
    });
    const server = await start(env, join(work, "leaks"));
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Leaks", "en", []);
      await admin.key(pid, "k", { en: "K" });
      const draft = await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" });
      await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
      // The store refuses the unknown key (and names it in its answer); the copies fail and wait.
      const status = await eventually(async () => (await admin.get("/mirror")).body.failed.length > 0 && (await admin.get("/mirror")).body, { what: "a refused copy" });
      expect(status.failed[0].error).toBe("PUT answered 403 InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.");
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^phrasebook_mirror_pending [1-9]\d*$/m); // the copies that wait
      const answers = JSON.stringify(status) + metrics + JSON.stringify((await admin.get("/me")).body);
      // A purge the API answers with the token in it (the http purge with no mirror would do the same).
      await server.stop();
      const purging = await start({ ...env, PHRASEBOOK_S3_BUCKET: "", PHRASEBOOK_S3_ENDPOINT: "" }, join(work, "leaks"));
      const admin2 = await DashboardClient.loggedIn(purging.url);
      const draft2 = await admin2.post(`/projects/${pid}/releases`, { name: "v2", tag: "v2" });
      await admin2.key(pid, "k2", { en: "K2" });
      await admin2.post(`/projects/${pid}/releases/${draft2.body.id}/publish`);
      await eventually(() => purging.output().includes("a cdn purge failed"), { what: "a failed purge logged" });
      expect(purging.output()).toContain("[credential]");
      const output = server.output() + purging.output();
      for (const secret of ["AKIA-UNKNOWN-KEY-ID", "secret-access-key-that-must-not-leak", token]) {
        expect(output).not.toContain(secret);
        expect(answers).not.toContain(secret);
      }
      await purging.stop();
    } finally {
      await cf.stop();
    }
  });

  test("the restore drill from the bucket alone: Litestream and the mirror in one bucket, the machine lost mid-write, restored from the bucket: every pinned URL the same bytes at the server and in the bucket, every write acknowledged a second before the loss kept", { timeout: 120_000 }, async () => {
    const LITESTREAM = join(ROOT, "node_modules", "@flydotio", "litestream-linux-x64", "litestream");
    expect(existsSync(LITESTREAM)).toBe(true);
    // The store as Litestream needs it to list (test/helpers/s3.ts "startListingProxy"); the
    // mirror and the replica's release copies go the same way, to the same bucket.
    const store = startListingProxy(s3.endpoint);
    const dataDir = join(work, "drill");
    const prefix = "drill";
    const replicaUrl = `s3://${BUCKET}/replica`;
    const env = {
      ...mirrorEnv(s3, prefix, { PHRASEBOOK_S3_ENDPOINT: store.endpoint }),
      PHRASEBOOK_REPLICA_URL: replicaUrl,
      PHRASEBOOK_REPLICA_S3_ENDPOINT: store.endpoint,
      PHRASEBOOK_REPLICA_S3_REGION: S3_REGION,
      AWS_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY,
      PHRASEBOOK_LITESTREAM: LITESTREAM,
      // The CDN in front of the bucket (its path as the server's own CDN's): the manifests name it,
      // so the restored server, on another port, serves the same bytes.
      PHRASEBOOK_CDN_URL: "https://cdn.example.test/cdn",
    };
    try {
      const first = await start(env, dataDir, { ownProcessGroup: true });
      const admin = await DashboardClient.loggedIn(first.url);
      const pid = await admin.project("Drill", "en", ["de"]);
      const keyIds: string[] = [];
      for (let i = 0; i < DRILL_KEYS; i++) keyIds.push(await admin.key(pid, `drill.key_${i}`, { en: `English ${i}`, de: "w0" }));

      // Two writers and a publisher until the loss; each acknowledged write is recorded with the
      // time its answer arrived, each published release's pinned files with their bytes.
      const acks: { keyId: string; seq: number; at: number }[] = [];
      const pinned = new Map<string, { body: Uint8Array; at: number }>();
      let seq = 0;
      let lost = false;
      const writer = async () => {
        while (!lost) {
          const n = ++seq;
          const keyId = keyIds[n % DRILL_KEYS]!;
          const reply = await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: `w${n}` }).catch(() => null);
          if (reply?.status === 200) acks.push({ keyId, seq: n, at: Date.now() });
        }
      };
      let tag = 0;
      const publishOnce = async () => {
        const draft = await admin.post(`/projects/${pid}/releases`, { name: `Drill ${++tag}`, tag: `d${tag}` }).catch(() => null);
        const release = draft?.status === 201 ? await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`).catch(() => null) : null;
        if (release?.status !== 200) return;
        const at = Date.now();
        for (const l of release.body.languages) {
          for (const url of Object.values(l.download_urls) as string[]) {
            const path = new URL(url).pathname.slice("/cdn/".length);
            const res = await cdnOf(first)(path).catch(() => null);
            if (res?.status === 200) pinned.set(path, { body: new Uint8Array(await res.arrayBuffer()), at });
          }
        }
      };
      const publisher = async () => {
        while (!lost) {
          await Bun.sleep(DRILL_PUBLISH_EVERY_MS);
          if (!lost) await publishOnce();
        }
      };
      await publishOnce(); // one release before the writes start, whatever the machine's load
      const running = [publisher(), writer(), writer()];
      await Bun.sleep(DRILL_WRITE_SECONDS * 1000);

      const lostAt = Date.now();
      await first.kill("SIGKILL"); // the server, Litestream and its guard at one instant: the machine is lost
      lost = true;
      await Promise.all(running);
      rmSync(dataDir, { recursive: true, force: true });
      expect(acks.length).toBeGreaterThan(20);
      expect(pinned.size).toBeGreaterThanOrEqual(6); // one release or more, of 2 languages x 3 formats

      // Restored from the bucket alone, then served with the same settings.
      const listingsBefore = store.listings();
      const restore = await run(["restore"], { PHRASEBOOK_DATA_DIR: dataDir, ...env });
      expect(restore.err).toBe("");
      expect(restore.code).toBe(0);
      expect(restore.out).toContain(`restored ${dataDir} from ${replicaUrl}: database, `);
      expect(restore.out).toContain(`then, with it running, make the bucket what it serves: phrasebook mirror sync --data-dir ${dataDir}\n`);
      expect(store.listings()).toBeGreaterThan(listingsBefore); // Litestream found its generation by a delimited listing
      const second = await start(env, dataDir);

      // Every pinned URL of a release published more than a second before the loss answers the
      // same bytes; one published in the last second may be missing (404), never different.
      for (const [path, { body, at }] of pinned) {
        const res = await cdnOf(second)(path);
        const got = new Uint8Array(await res.arrayBuffer());
        if (at > lostAt - 1000 && res.status === 404) continue;
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(Buffer.from(got).equals(Buffer.from(body))).toBe(true);
      }

      // Every write acknowledged more than a second before the loss is there (or a later one of the same key).
      const restored = new Map<string, number>();
      for (const { key_id, value } of second.query<{ key_id: string; value: string }>(
        "SELECT k.public_id AS key_id, t.value FROM translations t JOIN translation_keys k ON k.id = t.key_id JOIN languages l ON l.id = t.language_id WHERE l.code = 'de'",
      )) {
        restored.set(key_id, Number(value.slice(1)));
      }
      const missing = acks.filter((a) => (restored.get(a.keyId) ?? -1) < a.seq);
      expect(missing.filter((a) => a.at <= lostAt - 1000)).toEqual([]);

      // The bucket, once the restored server's mirror has caught up: every pinned file it serves,
      // with the bytes it had.
      const admin2 = await DashboardClient.loggedIn(second.url);
      await mirrored((sql) => second.query(sql));
      let inBucket = 0;
      for (const [path, { body }] of pinned) {
        const res = await cdnOf(second)(path);
        await res.arrayBuffer();
        if (res.status === 404) continue; // published in the last second, checked above
        expect(Buffer.from((await bucketObject(s3, `${prefix}/${path}`)).body).equals(Buffer.from(body))).toBe(true);
        inBucket++;
      }
      expect(inBucket).toBeGreaterThanOrEqual(6);
      // What the last second lost may have reached the bucket before the loss (a `latest` moved to
      // a release the restored server never saw): `mirror sync` makes the bucket what the server
      // serves (docs/deploy.md "Restore drill"), path by path.
      const sync = await run(["mirror", "sync"], { ...second.env, ...env });
      expect(sync.err).toBe("");
      expect(sync.code).toBe(0);
      await walk(second, admin2, prefix, pid);
      console.log(
        `restore drill from the bucket: ${acks.length} acknowledged writes, ${pinned.size} pinned files; lost ${missing.length} write(s) ` +
          `acknowledged in the last ${missing.length === 0 ? 0 : lostAt - Math.min(...missing.map((a) => a.at))} ms; ${sync.out.trim()}`,
      );

      // The restored server mirrors what comes next.
      const draft = await admin2.post(`/projects/${pid}/releases`, { name: "after", tag: "after" });
      expect((await admin2.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
      await walk(second, admin2, prefix, pid);
      await second.stop();
    } finally {
      await store.stop();
    }
  });
});

