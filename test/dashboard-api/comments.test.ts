/**
 * Comments' routes as scenario rows (docs/translators.md "Comments"); the behaviour itself:
 * test/comments/.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const rows: Scenario[] = [
  { name: "a member reads a key's comments", as: "member", method: "GET", url: "/projects/:pid/keys/:keyId/comments", status: 200, after: ({ ids }, body) => expect(body.items).toEqual([expect.objectContaining({ id: ids.commentId, body: "Page or button?", resolved_at: expect.any(String) })]) },
  { name: "an unknown key is 404", method: "GET", url: "/projects/:pid/keys/key_00000000000000000000/comments", status: 404, contains: ["key not found"] },

  { name: "a member comments", as: "member", method: "POST", url: "/projects/:pid/keys/:keyId/comments", body: { body: "Shorter, please", language_code: "de" }, status: 201, contains: ['"language_code":"de"'] },
  { name: "a comment past 4,000 characters is 400 naming body", method: "POST", url: "/projects/:pid/keys/:keyId/comments", body: { body: "x".repeat(4001) }, status: 400, contains: ['"body"'] },
  { name: "an unknown language is 400 naming it", method: "POST", url: "/projects/:pid/keys/:keyId/comments", body: { body: "x", language_code: "it" }, status: 400, contains: ['"language_code"'] },
  { name: "an unknown key is 404", method: "POST", url: "/projects/:pid/keys/key_00000000000000000000/comments", body: { body: "x" }, status: 404, contains: ["key not found"] },

  { name: "a member resolves a comment", as: "member", method: "POST", url: "/projects/:pid/keys/:keyId/comments/:commentId/resolve", status: 200, contains: ['"resolved_at":"'] },
  { name: "an unknown comment is 404", method: "POST", url: "/projects/:pid/keys/:keyId/comments/cmt_00000000000000000000/resolve", status: 404, contains: ["comment not found"] },
  { name: "another key's comment is 404", method: "POST", url: "/projects/:pid/keys/:plainKeyId/comments/:commentId/resolve", status: 404, contains: ["comment not found"] },

  { name: "the member deletes their own comment", as: "member", method: "DELETE", url: "/projects/:pid/keys/:keyId/comments/:commentId", status: 204 },
  { name: "an admin deletes anyone's", method: "DELETE", url: "/projects/:pid/keys/:keyId/comments/:commentId", status: 204 },
  { name: "an unknown comment is 404", method: "DELETE", url: "/projects/:pid/keys/:keyId/comments/cmt_00000000000000000000", status: 404, contains: ["comment not found"] },
];

scenarios("comments", standardWorld, rows);
coverage("comments", rows);
