/**
 * Screenshots' routes as scenario rows (docs/translators.md "Screenshots"); the behaviour itself:
 * test/screenshots/.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { JPEG, PNG } from "../screenshots/images.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const BOX = { x: 20, y: 20, width: 280, height: 40 };

const rows: Scenario[] = [
  { name: "a member lists the screenshots", as: "member", method: "GET", url: "/projects/:pid/screenshots", status: 200, after: ({ ids }, body) => expect(body.items).toEqual([expect.objectContaining({ id: ids.sid, name: "checkout", keys: [{ key_id: ids.keyId, key: "checkout.title", box: BOX }] })]) },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/screenshots", status: 404, contains: ["project not found"] },

  { name: "a member uploads one", as: "member", method: "POST", url: "/projects/:pid/screenshots?name=home", headers: { "content-type": "image/jpeg" }, body: JPEG, status: 201, contains: ['"name":"home"', '"content_type":"image/jpeg"'] },
  { name: "a name past its limit is 400 naming it", method: "POST", url: `/projects/:pid/screenshots?name=${"n".repeat(201)}`, headers: { "content-type": "image/png" }, body: PNG, status: 400, contains: ['"name"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/screenshots?name=x", headers: { "content-type": "image/png" }, body: PNG, status: 404, contains: ["project not found"] },

  { name: "a member sees the image", as: "member", method: "GET", url: "/projects/:pid/screenshots/:sid/image", status: 200, after: (_, _body, reply) => expect(reply.headers.get("x-content-type-options")).toBe("nosniff") },
  { name: "an unknown screenshot is 404", method: "GET", url: "/projects/:pid/screenshots/scr_00000000000000000000/image", status: 404, contains: ["screenshot not found"] },
  { name: "another project's screenshot is 404", method: "GET", url: "/projects/:listPid/screenshots/:sid/image", status: 404, contains: ["screenshot not found"] },

  { name: "a member links keys", as: "member", method: "PUT", url: "/projects/:pid/screenshots/:sid/keys", body: { keys: [{ key: "cart.empty", box: null }] }, status: 200, contains: ['"key":"cart.empty"'] },
  { name: "a box past the image is 400 naming it", method: "PUT", url: "/projects/:pid/screenshots/:sid/keys", body: { keys: [{ key: "cart.empty", box: { x: 0, y: 0, width: 321, height: 1 } }] }, status: 400, contains: ['"keys.0.box"'] },
  { name: "an unknown screenshot is 404", method: "PUT", url: "/projects/:pid/screenshots/scr_00000000000000000000/keys", body: { keys: [] }, status: 404, contains: ["screenshot not found"] },

  { name: "a member deletes one", as: "member", method: "DELETE", url: "/projects/:pid/screenshots/:sid", status: 204 },
  { name: "an unknown screenshot is 404", method: "DELETE", url: "/projects/:pid/screenshots/scr_00000000000000000000", status: 404, contains: ["screenshot not found"] },

  { name: "a member reads a key's screenshots, with its box", as: "member", method: "GET", url: "/projects/:pid/keys/:keyId/screenshots", status: 200, after: ({ ids }, body) => expect(body.items).toEqual([expect.objectContaining({ id: ids.sid, box: BOX })]) },
  { name: "an unknown key is 404", method: "GET", url: "/projects/:pid/keys/key_00000000000000000000/screenshots", status: 404, contains: ["key not found"] },
];

scenarios("screenshots", standardWorld, rows);
coverage("screenshots", rows);
