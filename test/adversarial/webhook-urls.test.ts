/**
 * Webhook URLs often carry a receiver's token in their query string, and members once read them
 * whole. Members see the query string masked; admins, who manage endpoints, see the URL whole
 * (docs/dashboard-api.md "Routes beyond product.md §4", docs/deploy.md "Security notes").
 */
import { expect, test } from "bun:test";
import { testApp } from "../helpers/app.ts";

test("dashboard-api.md Routes beyond product.md §4: a member sees webhook URLs with the query string masked, in the list and alone; an admin sees them whole", async () => {
  const t = await testApp();
  try {
    const admin = await t.login();
    const made0 = await admin.post("/users", { email: "member@example.test", name: "Mem", password: "member-password", role: "member" });
    const member = await t.login("member@example.test", "member-password");
    const pid = await admin.project("Hooks", "en");
    // A member of before is a developer (docs/dashboard-api.md "Project roles"): reads webhooks, changes none.
    expect((await admin.put(`/projects/${pid}/members/${made0.body.id}`, { role: "developer" })).status).toBe(200);
    const secretUrl = "https://hooks.example.test/in?token=s3cr3t-receiver-token&channel=ops";
    const made = await admin.post(`/projects/${pid}/webhooks`, { url: secretUrl, events: ["key_created"] });
    expect(made.status).toBe(201);
    const plain = await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/plain", events: ["key_created"] });

    const list = await member.get(`/projects/${pid}/webhooks`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((e: { url: string }) => e.url)).toEqual(["https://hooks.example.test/in?***", "https://hooks.example.test/plain"]);
    const one = await member.get(`/projects/${pid}/webhooks/${made.body.id}`);
    expect(one.body.url).toBe("https://hooks.example.test/in?***");
    expect(JSON.stringify([list.body, one.body])).not.toContain("s3cr3t");
    // Nothing else a member may read carries it either.
    const deliveries = await member.get(`/projects/${pid}/webhooks/${made.body.id}/deliveries`);
    expect(JSON.stringify(deliveries.body)).not.toContain("s3cr3t");

    expect((await admin.get(`/projects/${pid}/webhooks`)).body.items[0].url).toBe(secretUrl);
    expect((await admin.get(`/projects/${pid}/webhooks/${made.body.id}`)).body.url).toBe(secretUrl);
    expect((await admin.get(`/projects/${pid}/webhooks/${plain.body.id}`)).body.url).toBe("https://hooks.example.test/plain");
  } finally {
    await t.close();
  }
});
