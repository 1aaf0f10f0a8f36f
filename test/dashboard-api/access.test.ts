/**
 * Who may do what on the dashboard API (docs/product.md §4, docs/dashboard-api.md "Access"), one
 * row per rule, each on its own copy of the standard world.
 */
import { scenarios } from "../helpers/scenario.ts";
import { standardWorld } from "./world.ts";

scenarios("dashboard API access", standardWorld, [
  { name: "no session is 401", as: "anonymous", method: "GET", url: "/projects", status: 401, contains: ['"not logged in"'] },
  { name: "a change without the CSRF header is 403", as: "admin-without-csrf", method: "POST", url: "/projects/:pid/keys", body: { key: "x" }, status: 403, contains: ["X-CSRF-Token"], events: [] },
  { name: "an anonymous caller learns nothing about the input's shape", as: "anonymous", method: "POST", url: "/projects/:pid/keys", body: { nonsense: 1 }, status: 401 },
  { name: "a member may read keys", as: "member", method: "GET", url: "/projects/:pid/keys", status: 200, contains: ["checkout.title"] },
  { name: "a member may create a key, which writes key_created", as: "member", method: "POST", url: "/projects/:pid/keys", body: { key: "new.key" }, status: 201, events: ["key_created"] },
  { name: "a member may translate", as: "member", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "Zur Kasse" }, status: 200, events: ["translation_updated"] },
  { name: "a member may not create a release", as: "member", method: "POST", url: "/projects/:pid/releases", body: { name: "R", tag: "r" }, status: 403, contains: ["publisher role"], events: [] },
  { name: "a member may not publish", as: "member", method: "POST", url: "/projects/:pid/releases/:draftId/publish", status: 403, events: [] },
  { name: "a member may not add a language", as: "member", method: "POST", url: "/projects/:pid/languages", body: { code: "fr" }, status: 403 },
  { name: "a member may not delete a language", as: "member", method: "DELETE", url: "/projects/:pid/languages/de", status: 403 },
  { name: "a member may not rotate the project slug", as: "member", method: "POST", url: "/projects/:pid/rotate-slug", status: 403 },
  { name: "a member may not create tokens", as: "member", method: "POST", url: "/projects/:pid/tokens", body: { name: "t" }, status: 403 },
  { name: "a member may list tokens, never their values", as: "member", method: "GET", url: "/projects/:pid/tokens", status: 200, contains: ['"CI"'], notContains: [":token"] },
  { name: "a member may not create webhook endpoints", as: "member", method: "POST", url: "/projects/:pid/webhooks", body: { url: "https://x.example", events: ["key_created"] }, status: 403 },
  { name: "a member may not add users", as: "member", method: "POST", url: "/users", body: { email: "a@b.c", name: "A", password: "password-1", role: "admin" }, status: 403 },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/keys", status: 404, contains: ["project not found"] },
  { name: "an undecodable project id is 404", method: "GET", url: "/projects/%ZZ/keys", status: 404 },
  { name: "an admin may create a release, which writes release_created", method: "POST", url: "/projects/:pid/releases", body: { name: "R", tag: "r1" }, status: 201, events: ["release_created"] },
  { name: "an admin publishes a draft, which writes release_published", method: "POST", url: "/projects/:pid/releases/:draftId/publish", status: 200, contains: ['"status":"published"', "download_urls"], events: ["release_published"] },
  { name: "publishing a published release is 409 and writes nothing", method: "POST", url: "/projects/:pid/releases/:releaseId/publish", status: 409, events: [] },
  { name: "an admin deletes a release, which writes release_deleted", method: "DELETE", url: "/projects/:pid/releases/:releaseId", status: 204, events: ["release_deleted"] },
]);
