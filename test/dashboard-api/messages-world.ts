/**
 * The prepared state of the message-check scenarios (product §7, §8), made once per test run:
 *
 * - users: the bootstrap admin and a member (`developer` in both projects), both signed in;
 * - "Intl" (en base, de, fr, ja) with the typical problems of product §7:
 *   `files.count` (en plural; de lacks `one`: a warning; fr one `}` short: an error; ja fine),
 *   `greeting` (en `{name}`; de fine; ja `{cnt}`: an error and a warning; fr missing),
 *   `plain` (en, de approved, fr), `title` (en only); the draft "Next" (v2); a token "CI" with the
 *   publish scope (the caller `token:publish`);
 * - "Clean" (en base, de) without problems and its draft "Ready" (v1).
 */
import type { TestApp } from "../helpers/app.ts";
import type { World } from "../helpers/scenario.ts";
import { MEMBER } from "./world.ts";

export const EN_FILES = "{count, plural, one {# file} other {# files}}";
export const DE_FILES_NO_ONE = "{count, plural, other {# Dateien}}";
export const FR_FILES_BROKEN = "Message {count, plural, one {# truc} other {# trucs}";
export const JA_GREETING_BROKEN = "メッセージ {cnt}";

function must<T extends { status: number; body: any }>(what: string, reply: T, status = 201): T {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

export async function messagesWorld(t: TestApp): Promise<World> {
  const admin = await t.login();
  must("member", await admin.post("/users", { email: MEMBER.email, name: "Mem", password: MEMBER.password, role: "member" }));
  const member = await t.login(MEMBER.email, MEMBER.password);

  const pid = await admin.project("Intl", "en", ["de", "fr", "ja"]);
  const filesKeyId = await admin.key(pid, "files.count", { en: EN_FILES, de: DE_FILES_NO_ONE, fr: FR_FILES_BROKEN, ja: "{count, plural, other {# 件}}" });
  const greetingKeyId = await admin.key(pid, "greeting", { en: "Hello {name}", de: "Hallo {name}", ja: JA_GREETING_BROKEN });
  const plainKeyId = await admin.key(pid, "plain", { en: "Plain", de: "Schlicht", fr: "Simple" });
  must("approve", await admin.post(`/projects/${pid}/keys/${plainKeyId}/translations/de/approve`), 200);
  const titleKeyId = await admin.key(pid, "title", { en: "Title" });
  const draft = must("draft", await admin.post(`/projects/${pid}/releases`, { name: "Next", tag: "v2" })).body;
  const token = must("token", await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["publish"] })).body;

  const cleanPid = await admin.project("Clean", "en", ["de"]);
  await admin.key(cleanPid, "hello", { en: "Hello {name}", de: "Hallo {name}" });
  const cleanDraft = must("clean draft", await admin.post(`/projects/${cleanPid}/releases`, { name: "Ready", tag: "v1" })).body;
  // A member's old rights: `developer` (docs/dashboard-api.md "Project roles").
  const memberId = (await member.get("/me")).body.user.id;
  for (const project of [pid, cleanPid]) must("member role", await admin.put(`/projects/${project}/members/${memberId}`, { role: "developer" }), 200);

  return {
    ids: {
      pid,
      filesKeyId,
      greetingKeyId,
      plainKeyId,
      titleKeyId,
      draftId: draft.id,
      cleanPid,
      cleanDraftId: cleanDraft.id,
    },
    sessions: { admin: { cookie: admin.cookie, csrf: admin.csrf }, member: { cookie: member.cookie, csrf: member.csrf } },
    tokens: { "token:publish": token.token },
  };
}
