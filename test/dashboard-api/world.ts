/**
 * The prepared state most dashboard API scenarios start from, made once per test run:
 *
 * - users: the bootstrap admin and a member (`developer` in every project), both signed in; a second admin, "author", who
 *   published the release "Launch" and is signed in too (ids.authorCookie);
 * - "Shop" (en base, de, pt-BR): `checkout.title` (context "Page title"; en "Checkout" approved,
 *   de "Kasse") and `cart.empty` (en only); "Launch" v1 published, "Next" v2 a draft; the API
 *   token "CI"; a webhook endpoint for key_created and release_published with one test delivery
 *   (pending: no sender runs);
 * - "Listing" (en): six keys for search and paging; "Other" (fr): empty, for ids of one project
 *   used under another;
 * - help for translators in "Shop" (docs/translators.md): the glossary term "wishlist", a resolved
 *   comment on `checkout.title`, the screenshot "checkout" showing it in a box, and an imported
 *   memory of one unit.
 */
import type { TestApp } from "../helpers/app.ts";
import type { World } from "../helpers/scenario.ts";
import { PNG } from "../screenshots/images.ts";

export const MEMBER = { email: "member@example.test", password: "member-password" };
export const AUTHOR = { email: "author@example.test", password: "author-password" };
/** The keys of "Listing", each with the English value `EN <key>`. */
export const LISTING_KEYS = ["home.title", "home.subtitle", "cart.items_count", "Checkout-Button", "ünïcode.ключ", "100%_done"];

function must<T extends { status: number; body: any }>(what: string, reply: T, status = 201): T {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

/** The world's imported memory: one unit, en to de. */
export const TMX = `<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en" creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" datatype="plaintext"/><body><tu tuid="legacy"><tuv xml:lang="en"><seg>Pay now</seg></tuv><tuv xml:lang="de"><seg>Jetzt bezahlen</seg></tuv></tu></body></tmx>`;

export async function standardWorld(t: TestApp): Promise<World> {
  const admin = await t.login();
  must("member", await admin.post("/users", { email: MEMBER.email, name: "Mem", password: MEMBER.password, role: "member" }));
  const author = must("author", await admin.post("/users", { email: AUTHOR.email, name: "Author", password: AUTHOR.password, role: "admin" }));
  const member = await t.login(MEMBER.email, MEMBER.password);
  const authorClient = await t.login(AUTHOR.email, AUTHOR.password);

  const shop = must("project", await admin.post("/projects", { name: "Shop", base_language_code: "en" })).body;
  const pid: string = shop.id;
  for (const code of ["de", "pt-BR"]) must("language", await admin.post(`/projects/${pid}/languages`, { code }));
  const keyId = await admin.key(pid, "checkout.title", { en: "Checkout", de: "Kasse" }, "Page title");
  must("approve", await admin.post(`/projects/${pid}/keys/${keyId}/translations/en/approve`), 200);
  const plainKeyId = await admin.key(pid, "cart.empty", { en: "Your cart is empty" });
  const published = must("release", await authorClient.post(`/projects/${pid}/releases`, { name: "Launch", tag: "v1" })).body;
  const publish = must("publish", await authorClient.post(`/projects/${pid}/releases/${published.id}/publish`), 200).body;
  const draft = must("draft", await admin.post(`/projects/${pid}/releases`, { name: "Next", tag: "v2" })).body;
  const token = must("token", await admin.post(`/projects/${pid}/tokens`, { name: "CI" })).body;
  const webhook = must("webhook", await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/in", events: ["key_created", "release_published"] })).body;
  const delivery = must("test event", await admin.post(`/projects/${pid}/webhooks/${webhook.id}/test`, { event: "release_published" }), 202).body;

  const listPid = await admin.project("Listing", "en");
  for (const key of LISTING_KEYS) await admin.key(listPid, key, { en: `EN ${key}` });
  const otherPid = await admin.project("Other", "fr");

  const memberId = (await member.get("/me")).body.user.id;
  const adminId = (await admin.get("/me")).body.user.id;
  // The member holds `developer` in every project: the rights a member had before project roles
  // (docs/dashboard-api.md "Project roles"), which the tables of this world were written for.
  for (const project of [pid, listPid, otherPid]) must("member role", await admin.put(`/projects/${project}/members/${memberId}`, { role: "developer" }), 200);
  const term = must("glossary term", await admin.post(`/projects/${pid}/glossary`, { term: "wishlist", translations: { de: "Wunschliste" } })).body;
  const comment = must("comment", await member.post(`/projects/${pid}/keys/${keyId}/comments`, { body: "Page or button?" })).body;
  must("resolve", await admin.post(`/projects/${pid}/keys/${keyId}/comments/${comment.id}/resolve`), 200);
  const shot = must("screenshot", await admin.upload("POST", `/projects/${pid}/screenshots?name=checkout`, PNG, "image/png")).body;
  must("screenshot keys", await admin.put(`/projects/${pid}/screenshots/${shot.id}/keys`, { keys: [{ key: "checkout.title", box: { x: 20, y: 20, width: 280, height: 40 } }] }), 200);
  const memory = must("memory", await admin.upload("POST", `/projects/${pid}/tm/import?name=Legacy`, TMX, "application/xml"), 200).body;

  return {
    ids: {
      pid,
      cdnSlug: shop.cdn_slug,
      keyId,
      plainKeyId,
      releaseId: published.id,
      releaseSlug: publish.slug,
      draftId: draft.id,
      tokenId: token.id,
      token: token.token,
      webhookId: webhook.id,
      deliveryId: delivery.delivery_id,
      listPid,
      otherPid,
      memberId,
      adminId,
      authorId: author.body.id,
      authorCookie: authorClient.cookie,
      memberCsrf: member.csrf,
      termId: term.id,
      commentId: comment.id,
      sid: shot.id,
      importId: memory.id,
    },
    sessions: { admin: { cookie: admin.cookie, csrf: admin.csrf }, member: { cookie: member.cookie, csrf: member.csrf } },
  };
}

/**
 * A route's path (Elysia's `:name` parameters) with the world's ids in it: the draft release, the
 * member, the webhook endpoint and its delivery, the language `de`. Overrides win.
 */
export function pathWithIds(path: string, ids: Record<string, string>, overrides: Record<string, string> = {}): string {
  const byParam: Record<string, string | undefined> = { userId: ids.memberId, rid: ids.draftId, wid: ids.webhookId, did: ids.deliveryId, code: "de", name: "staging", ...ids, ...overrides };
  return path.replace(/:([A-Za-z]+)/g, (whole, name: string) => {
    const id = byParam[name];
    if (id === undefined) throw new Error(`no id for ${whole} in ${path}`);
    return id;
  });
}
