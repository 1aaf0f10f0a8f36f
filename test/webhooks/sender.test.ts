/**
 * The sender in-process, where the DNS resolver is a dependency: rebinding, TLS verified for the
 * name while connecting to the pinned address, idempotent dispatch, graceful shutdown and log
 * retention. Real database, real HTTPS receiver, real fetch.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createProject, findProject } from "../../src/authoring/projects.ts";
import { systemClock } from "../../src/common/clock.ts";
import type { ServiceDeps } from "../../src/deps.ts";
import type { Db } from "../../src/storage/db.ts";
import type { ProjectRow } from "../../src/storage/schema.ts";
import { deliveryDetail, sendTestEvent } from "../../src/webhooks/delivery-log.ts";
import { createEndpoint } from "../../src/webhooks/endpoints.ts";
import { Cron } from "croner";
import { removeOldDeliveries, RETENTION_MINUTE, RETENTION_SCHEDULE, startRetentionJob } from "../../src/webhooks/retention.ts";
import { WebhookSender, type SenderDeps } from "../../src/webhooks/sender.ts";
import { DeliveryStore } from "../../src/webhooks/store.ts";
import type { HostResolver } from "../../src/webhooks/target.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import { startReceiver, testCa, type Receiver } from "../helpers/https-receiver.ts";
import { eventually } from "../helpers/wait.ts";

// Real servers and receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

let t: TestApp;
let deps: ServiceDeps;
let db: Db;
let project: ProjectRow;
let receiver: Receiver;
const senders: WebhookSender[] = [];

const CONFIG = { retryDelaysSeconds: [0.2, 0.4, 0.6, 0.8], timeoutSeconds: 2, allowCidrs: ["127.0.0.1/32"] };

function sender(resolver: HostResolver, extra: Partial<SenderDeps> = {}): WebhookSender {
  const s = new WebhookSender({
    db,
    clock: systemClock,
    changes: deps.changes,
    config: CONFIG,
    fetch: t.deps.fetch,
    resolver,
    ca: testCa().caPem,
    ...extra,
  });
  senders.push(s);
  s.start();
  return s;
}

function settled(did: string, done = (d: any) => d.status !== "pending", timeoutMs = 4000): Promise<any> {
  return eventually(
    () => {
      const d = deliveryDetail(db, project, did);
      return done(d) && d;
    },
    { timeoutMs, what: () => `delivery settled: ${JSON.stringify(deliveryDetail(db, project, did)).slice(0, 1000)}` },
  );
}

beforeAll(async () => {
  // The real clock: the sender waits for due times on it.
  t = await testApp({ clock: systemClock });
  deps = t.deps;
  db = t.deps.db;
  project = findProject(db, createProject(deps, { name: "In-process", base_language_code: "en" }).id);
  receiver = await startReceiver();
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  // Whatever a test left pending must not be sent by the next test's sender.
  db.$client.run("UPDATE webhook_endpoints SET enabled = 0");
});

afterAll(async () => {
  await receiver.stop();
  await t.close();
});

describe("interface §6.1 rule 2: connect to exactly the vetted address", () => {
  test("interface §6.1 rule 2: DNS rebinding (public, then private) never reaches the private address", async () => {
    const port = receiver.port;
    // The "private" address the rebinding answer points at: same port, another loopback address.
    let privateConnections = 0;
    const privateSide = Bun.listen({ hostname: "127.0.0.2", port, socket: { open: () => void privateConnections++, data() {} } });
    const lookups: string[] = [];
    const rebinding: HostResolver = async (name) => {
      lookups.push(name);
      return lookups.length === 1 ? ["127.0.0.1"] : ["127.0.0.2"];
    };
    try {
      const before = receiver.requests.length;
      const ep = createEndpoint(deps, project, { url: `https://receiver.test:${port}/rebind`, events: ["key_created"] });
      sender(rebinding);
      const first = await settled(sendTestEvent(deps, project, ep.id, "key_created").delivery_id);
      expect(first.status).toBe("succeeded");
      expect(lookups).toEqual(["receiver.test"]); // one lookup per attempt: the connection used its answer
      expect(receiver.requests.length).toBe(before + 1);
      expect(receiver.requests.at(-1)!.headers.host).toBe(`receiver.test:${port}`);

      const second = await settled(sendTestEvent(deps, project, ep.id, "key_created").delivery_id, (d) => d.attempts.length >= 1);
      expect(second.attempts[0].failure_reason).toBe(`refused address: 127.0.0.2 is a loopback address (receiver.test resolves to 127.0.0.2)`);
      expect(receiver.requests.length).toBe(before + 1);
      expect(privateConnections).toBe(0);
    } finally {
      privateSide.stop(true);
    }
  });

  test("interface §6.1 rule 2: TLS is verified for the saved host name, not for the pinned address", async () => {
    // The receiver's certificate covers 127.0.0.1 but not this name: checking the IP would pass.
    const ep = createEndpoint(deps, project, { url: `https://not-on-the-cert.test:${receiver.port}/`, events: ["key_created"] });
    sender(async () => ["127.0.0.1"]);
    const before = receiver.requests.length;
    const d = await settled(sendTestEvent(deps, project, ep.id, "key_created").delivery_id, (x) => x.attempts.length >= 1);
    expect(d.attempts[0].failure_reason).toBe("TLS error: certificate does not match the host name (ERR_TLS_CERT_ALTNAME_INVALID)");
    expect(receiver.requests.length).toBe(before);
  });

  test("interface §6.1 rule 2: a name whose records mix an allowed and a private address is refused and nothing is sent", async () => {
    const ep = createEndpoint(deps, project, { url: `https://receiver.test:${receiver.port}/mixed`, events: ["key_created"] });
    sender(async () => ["127.0.0.1", "10.0.0.5"]);
    const before = receiver.requests.length;
    const d = await settled(sendTestEvent(deps, project, ep.id, "key_created").delivery_id, (x) => x.attempts.length >= 1);
    expect(d.attempts[0].failure_reason).toBe("refused address: 10.0.0.5 is a private address (receiver.test resolves to 127.0.0.1, 10.0.0.5)");
    expect(receiver.requests.length).toBe(before);
  });
});

describe("interface §6.4: a slow receiver holds only its own attempts", () => {
  test("interface §6.4: a slow receiver does not hold up another endpoint", async () => {
    // Ordered, not timed: the slow receiver answers only when the test lets it, and the receiver
    // timeout is longer than the test, so its attempts can end only then. The fast endpoint's
    // delivery must succeed while all of them are still in flight.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const slow = await startReceiver({ handler: () => held.then(() => new Response("late")) });
    try {
      const slowEp = createEndpoint(deps, project, { url: slow.url(), events: ["key_created"] });
      const fastEp = createEndpoint(deps, project, { url: receiver.url("/fast"), events: ["key_created"] });
      sender(async () => ["127.0.0.1"], { config: { ...CONFIG, timeoutSeconds: 120 } });
      const slowDids = Array.from({ length: 20 }, () => sendTestEvent(deps, project, slowEp.id, "key_created").delivery_id);
      await slow.waitFor(20); // all 20 in flight at once
      const d = await settled(sendTestEvent(deps, project, fastEp.id, "key_created").delivery_id);
      expect(d.status).toBe("succeeded");
      for (const did of slowDids) expect(deliveryDetail(db, project, did).attempts, "a slow attempt ended before the fast delivery got through").toHaveLength(0);
    } finally {
      letGo();
      await Promise.all(senders.splice(0).map((s) => s.stop()));
      await slow.stop();
    }
  });
});

describe("product §5: nothing lost, nothing doubled", () => {
  test("product §5: dispatching the outbox twice creates one delivery per subscribed endpoint", () => {
    const p = findProject(db, createProject(deps, { name: "Dispatch", base_language_code: "en" }).id);
    createEndpoint(deps, p, { url: "https://a.example/", events: ["key_created"] });
    createEndpoint(deps, p, { url: "https://b.example/", events: ["key_deleted"] });
    createEndpoint(deps, p, { url: "https://c.example/", events: ["key_created"], enabled: false });
    db.transaction(() => deps.changes.event(p, "key_created", { key: "k", context: null }));
    const store = new DeliveryStore(db);
    expect(store.dispatchOutbox(Date.now(), 100)).toBeGreaterThanOrEqual(1);
    // As if the process had died before marking the event: dispatch again.
    db.$client.run("UPDATE outbox_events SET dispatched_at = NULL WHERE project_id = ?", [p.id]);
    store.dispatchOutbox(Date.now(), 100);
    const rows = db.$client.query("SELECT endpoint_id, event FROM deliveries WHERE project_id = ?").all(p.id);
    expect(rows).toHaveLength(1);
    db.$client.run("DELETE FROM webhook_endpoints WHERE project_id = ?", [p.id]);
  });

  test("an event no enabled endpoint subscribes to is not written; one unsubscribed before the sender handles it is removed then; one with deliveries stays until the retention", () => {
    const p = findProject(db, createProject(deps, { name: "Unsubscribed", base_language_code: "en" }).id);
    const a = createEndpoint(deps, p, { url: "https://a.example/", events: ["key_created", "key_updated"] });
    createEndpoint(deps, p, { url: "https://c.example/", events: ["key_deleted"], enabled: false });
    db.transaction(() => {
      deps.changes.event(p, "key_created", { key: "taken", context: null });
      deps.changes.event(p, "key_deleted", { key: "only a disabled endpoint" });
      deps.changes.event(p, "release_created", { release_id: "rel_x", name: "nobody", tag: "v1", status: "draft" });
      deps.changes.event(p, "key_updated", { key: "unsubscribed before the sender ran", context: null });
    });
    // Written in the transaction only for an enabled endpoint that subscribes (docs/webhooks.md "Events nobody subscribes to").
    expect(db.$client.query("SELECT event FROM outbox_events WHERE project_id = ? ORDER BY id").all(p.id)).toEqual([{ event: "key_created" }, { event: "key_updated" }]);
    db.$client.run("UPDATE webhook_endpoints SET events = ? WHERE public_id = ?", [JSON.stringify(["key_created"]), a.id]);
    new DeliveryStore(db).dispatchOutbox(Date.now(), 100);
    expect(db.$client.query("SELECT event, dispatched_at IS NOT NULL AS dispatched FROM outbox_events WHERE project_id = ?").all(p.id)).toEqual([{ event: "key_created", dispatched: 1 }]);
    expect(db.$client.query("SELECT event FROM deliveries WHERE project_id = ?").all(p.id)).toEqual([{ event: "key_created" }]);
    db.$client.run("DELETE FROM webhook_endpoints WHERE project_id = ?", [p.id]);
  });

  test("interface §6.4: graceful shutdown waits briefly, then leaves the attempt scheduled for the next start", async () => {
    let answer = false;
    const slow = await startReceiver({ handler: async () => { while (!answer) await Bun.sleep(20); return new Response("late"); } });
    try {
      const ep = createEndpoint(deps, project, { url: slow.url(), events: ["key_created"] });
      // A receiver timeout longer than the test: only the shutdown can end the attempt.
      const s = sender(async () => ["127.0.0.1"], { shutdownGraceMs: 300, config: { ...CONFIG, timeoutSeconds: 120 } });
      const did = sendTestEvent(deps, project, ep.id, "key_created").delivery_id;
      await slow.waitFor(1);
      // Ordered, not timed: stop() returns while the receiver still holds the attempt, so no
      // attempt is recorded for it (the 10 s are a limit of waiting, far beyond the grace).
      const stopped = await Promise.race([s.stop().then(() => true), Bun.sleep(10_000).then(() => false)]);
      expect(stopped, "stop() returned with the attempt still in flight").toBe(true);
      const row = db.$client.query("SELECT status, attempt_count, lease_until FROM deliveries WHERE public_id = ?").get(did) as any;
      expect(row).toEqual({ status: "pending", attempt_count: 0, lease_until: null });
      answer = true;
      sender(async () => ["127.0.0.1"]);
      const d = await settled(did);
      expect(d.status).toBe("succeeded");
      expect(d.attempts).toHaveLength(1);
      expect(slow.requests.map((r) => r.headers["x-service-delivery"])).toEqual([did, did]);
    } finally {
      await slow.stop();
    }
  });
});

describe("interface §6.5: retention", () => {
  test("interface §6.5: deliveries older than 30 days are removed with their attempts; younger ones stay", () => {
    const now = Date.now();
    const day = 86_400_000;
    const ep = createEndpoint(deps, project, { url: "https://retention.example/", events: ["key_created"], enabled: false });
    const endpointId = (db.$client.query("SELECT id FROM webhook_endpoints WHERE public_id = ?").get(ep.id) as { id: number }).id;
    const insert = (publicId: string, createdAt: number) => {
      const id = Number(db.$client.run(
        "INSERT INTO deliveries (public_id, endpoint_id, project_id, event, payload, status, attempt_count, created_at) VALUES (?, ?, ?, 'key_created', '{}', 'succeeded', 1, ?)",
        [publicId, endpointId, project.id, createdAt],
      ).lastInsertRowid);
      db.$client.run("INSERT INTO delivery_attempts (delivery_id, number, started_at, request_headers) VALUES (?, 1, ?, '{}')", [id, createdAt]);
      return id;
    };
    const old = insert("dlv_OldOldOldOldOldOld0", now - 31 * day);
    const young = insert("dlv_YoungYoungYoungYou", now - 29 * day);
    db.$client.run("INSERT INTO outbox_events (project_id, event, payload, created_at, dispatched_at) VALUES (?, 'key_created', '{}', ?, ?)", [project.id, now - 31 * day, now - 31 * day]);
    const removed = removeOldDeliveries(db, now);
    expect(removed.deliveries).toBe(1);
    expect(removed.events).toBe(1);
    const left = db.$client.query("SELECT id FROM deliveries WHERE id IN (?, ?)").all(old, young);
    expect(left).toEqual([{ id: young }]);
    expect(db.$client.query("SELECT COUNT(*) AS n FROM delivery_attempts WHERE delivery_id = ?").get(old)).toEqual({ n: 0 });
  });

  test("interface §6.5: the job runs once at start and then hourly, at minute 17", async () => {
    const ep = createEndpoint(deps, project, { url: "https://retention-job.example/", events: ["key_created"], enabled: false });
    const endpointId = (db.$client.query("SELECT id FROM webhook_endpoints WHERE public_id = ?").get(ep.id) as { id: number }).id;
    db.$client.run(
      "INSERT INTO deliveries (public_id, endpoint_id, project_id, event, payload, status, attempt_count, created_at) VALUES ('dlv_JobJobJobJobJobJobJo', ?, ?, 'key_created', '{}', 'failed', 5, ?)",
      [endpointId, project.id, Date.now()],
    );
    const in31Days = { now: () => Date.now() + 31 * 86_400_000 };
    const job = startRetentionJob(db, in31Days);
    try {
      // Scheduled one turn after start (croner is loaded then), with its first run.
      await eventually(() => job.nextRunAt() !== null);
      expect(db.$client.query("SELECT id FROM deliveries WHERE public_id = 'dlv_JobJobJobJobJobJobJo'").all()).toEqual([]);
      const next = new Date(job.nextRunAt()!);
      expect(next.getUTCMinutes()).toBe(RETENTION_MINUTE);
      expect(next.getUTCSeconds()).toBe(0);
    } finally {
      job.stop();
    }
  });

  test("interface §6.5: the schedule is hourly at minute 17 UTC, whatever the machine's time zone", () => {
    const schedule = new Cron(RETENTION_SCHEDULE, { utcOffset: 0, paused: true });
    const [first, second] = schedule.nextRuns(2, new Date(Date.UTC(2026, 0, 1, 10, 17, 0, 1)));
    expect(first!.toISOString()).toBe("2026-01-01T11:17:00.000Z");
    expect(second!.getTime() - first!.getTime()).toBe(3_600_000);
    schedule.stop();
  });
});
