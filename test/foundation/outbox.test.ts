import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: DashboardClient;
beforeAll(async () => {
  server = await startServer();
  admin = await DashboardClient.loggedIn(server.url);
});
afterAll(() => server.stop());

interface Row {
  event: string;
  payload: string;
  project_id: number;
}

function eventsOf(projectPublicId: string): any[] {
  return server
    .query<Row>("SELECT event, payload FROM outbox_events WHERE payload LIKE ? ORDER BY id", `%"project_id":"${projectPublicId}"%`)
    .map((r) => {
      const envelope = JSON.parse(r.payload);
      expect(envelope.event).toBe(r.event);
      return envelope;
    });
}

describe("CONTRACTS 5: every authoring change writes its spec 6.2 envelope to the outbox", () => {
  test("key, translation and release events carry exactly the spec's data fields", async () => {
    const pid = await admin.project("Outbox", "en", ["de"]);
    const kid = await admin.key(pid, "cart.title", {}, "Cart header");
    await admin.patch(`/projects/${pid}/keys/${kid}`, { context: "Cart page header" });
    await admin.put(`/projects/${pid}/keys/${kid}/translations/de`, { value: "Warenkorb" });
    await admin.put(`/projects/${pid}/keys/${kid}/translations/de`, { value: "Einkaufswagen" });
    await admin.post(`/projects/${pid}/keys/${kid}/translations/de/approve`);
    const rel = (await admin.post(`/projects/${pid}/releases`, { name: "Spring", tag: "2026.03" })).body;
    await admin.patch(`/projects/${pid}/releases/${rel.id}`, { tag: "2026.04" });
    await admin.delete(`/projects/${pid}/releases/${rel.id}`);
    await admin.delete(`/projects/${pid}/keys/${kid}`);

    const events = eventsOf(pid);
    expect(events.map((e) => [e.event, e.data])).toEqual([
      ["key_created", { key: "cart.title", context: "Cart header" }],
      ["key_updated", { key: "cart.title", context: "Cart page header" }],
      ["translation_created", { key: "cart.title", language_code: "de", value: "Warenkorb", status: "translated" }],
      ["translation_updated", { key: "cart.title", language_code: "de", value: "Einkaufswagen", status: "translated" }],
      ["translation_approved", { key: "cart.title", language_code: "de", value: "Einkaufswagen", status: "approved" }],
      ["release_created", { release_id: rel.id, name: "Spring", tag: "2026.03", status: "draft" }],
      ["release_updated", { release_id: rel.id, name: "Spring", tag: "2026.04" }],
      ["release_deleted", { release_id: rel.id, name: "Spring", tag: "2026.04" }],
      ["key_deleted", { key: "cart.title" }],
    ]);
    for (const e of events) {
      expect(Object.keys(e)).toEqual(["event", "event_version", "occurred_at", "project_id", "data"]);
      expect(e.event_version).toBe(1);
      expect(e.project_id).toBe(pid);
      expect(e.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // Each row is pending dispatch until the sender picks it up.
    expect(server.query("SELECT count(*) AS n FROM outbox_events WHERE payload LIKE ?", `%${pid}%`)[0]).toEqual({ n: 9 });
  });

  test("a refused change writes no event; an unchanged save writes none either", async () => {
    const pid = await admin.project("No events", "en");
    const kid = await admin.key(pid, "dup", { en: "Same" });
    const before = eventsOf(pid).length;
    expect((await admin.post(`/projects/${pid}/keys`, { key: "dup" })).status).toBe(409);
    expect((await admin.put(`/projects/${pid}/keys/${kid}/translations/en`, { value: "Same" })).status).toBe(200);
    expect((await admin.patch(`/projects/${pid}/keys/${kid}`, { key: "dup" })).status).toBe(200);
    expect((await admin.post(`/projects/${pid}/keys`, { key: "" })).status).toBe(400);
    expect(eventsOf(pid)).toHaveLength(before);
  });
});
