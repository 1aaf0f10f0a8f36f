/**
 * The prepared state most dashboard API scenarios start from: an admin and a member signed in,
 * a project in three languages with keys and values, a published release and a draft, an API
 * token and a webhook endpoint.
 */
import type { TestApp } from "../helpers/app.ts";
import type { World } from "../helpers/scenario.ts";

export const MEMBER = { email: "member@example.test", password: "member-password" };

export async function standardWorld(t: TestApp): Promise<World> {
  const admin = await t.login();
  const created = await admin.post("/users", { email: MEMBER.email, name: "Mem", password: MEMBER.password, role: "member" });
  if (created.status !== 201) throw new Error(`member: ${JSON.stringify(created.body)}`);
  const member = await t.login(MEMBER.email, MEMBER.password);
  const pid = await admin.project("Shop", "en", ["de", "pt-BR"]);
  const keyId = await admin.key(pid, "checkout.title", { en: "Checkout", de: "Kasse" }, "Page title");
  const plainKeyId = await admin.key(pid, "cart.empty", { en: "Your cart is empty" });
  const published = await admin.post(`/projects/${pid}/releases`, { name: "Launch", tag: "v1" });
  const publish = await admin.post(`/projects/${pid}/releases/${published.body.id}/publish`);
  if (publish.status !== 200) throw new Error(`publish: ${JSON.stringify(publish.body)}`);
  const draft = await admin.post(`/projects/${pid}/releases`, { name: "Next", tag: "v2" });
  const token = await admin.post(`/projects/${pid}/tokens`, { name: "CI" });
  const webhook = await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/in", events: ["key_created", "release_published"] });
  const other = await admin.project("Other", "fr");
  const memberId = (await member.get("/me")).body.user.id;
  const adminId = (await admin.get("/me")).body.user.id;
  return {
    ids: {
      pid,
      keyId,
      plainKeyId,
      releaseId: published.body.id,
      draftId: draft.body.id,
      tokenId: token.body.id,
      token: token.body.token,
      webhookId: webhook.body.id,
      otherPid: other,
      memberId,
      adminId,
    },
    sessions: { admin: { cookie: admin.cookie, csrf: admin.csrf }, member: { cookie: member.cookie, csrf: member.csrf } },
  };
}
