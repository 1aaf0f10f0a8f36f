/**
 * Delivery to apps (docs/delivery.md): the signing key (read by members, rotated by project
 * admins) and app builds (registered with an import's right, listed by members).
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const BASE_JSON = JSON.stringify({ "checkout.title": "Checkout", "cart.empty": "Your cart is empty" });
const KEY_LINE = /^RW[A-Za-z0-9+/]{54}$/;

async function register(ctx: ScenarioContext): Promise<void> {
  const made = await ctx.as("admin").post(`/projects/${ctx.ids.pid}/builds`, { name: "App 1.0", files: [{ format: "json", content: BASE_JSON }] });
  expect(made.status).toBe(201);
}

const rows: Scenario[] = [
  {
    name: "a member reads the project's signing key: minisign's key line and file, its ID and URLs",
    as: "member",
    method: "GET",
    url: "/projects/:pid/signing-key",
    status: 200,
    after({ ids }, body) {
      expect(body.n).toBe(1);
      expect(body.public_key).toMatch(KEY_LINE);
      expect(body.key_file).toBe(`untrusted comment: minisign public key ${body.key_id}\n${body.public_key}\n`);
      expect(body.url).toBe(`http://localhost:8080/cdn/p/${ids.cdnSlug}/key.pub`);
      expect(body.previous).toEqual([]);
    },
  },
  { name: "an unknown project's key is 404", method: "GET", url: "/projects/prj_00000000000000000000/signing-key", status: 404 },
  {
    name: "an admin rotates the key: key 2, and key.pub serves it at once",
    method: "POST",
    url: "/projects/:pid/signing-key/rotate",
    status: 200,
    async after({ t, ids, as }, body) {
      expect(body.n).toBe(2);
      const served = await (await t.fetch(`/cdn/p/${ids.cdnSlug}/key.pub`)).text();
      expect(served).toBe(body.key_file);
      const view = (await as("admin").get(`/projects/${ids.pid}/signing-key`)).body;
      expect(view.previous.map((k: any) => k.n)).toEqual([1]);
      expect((await t.fetch(`/cdn/p/${ids.cdnSlug}/keys/2.pub.minisig`)).status).toBe(200);
      expect((await t.fetch(`/cdn/p/${ids.cdnSlug}/keys/1.pub.minisig`)).status).toBe(404);
    },
  },
  { name: "a member may not rotate the key", as: "member", method: "POST", url: "/projects/:pid/signing-key/rotate", status: 403, contains: ["admin role"] },
  { name: "rotating an unknown project's key is 404", method: "POST", url: "/projects/prj_00000000000000000000/signing-key/rotate", status: 404 },

  {
    name: "a member registers a build: its id is the first 16 hex digits of its message signature",
    as: "member",
    method: "POST",
    url: "/projects/:pid/builds",
    body: { name: "App 1.0", files: [{ format: "json", content: BASE_JSON }] },
    status: 201,
    async after({ as, ids }, body) {
      expect(body.build_id).toMatch(/^[0-9a-f]{16}$/);
      expect(body).toMatchObject({ name: "App 1.0", keys: 2 });
      // The same messages in other bytes (another order, YAML): the same build.
      const again = await as("admin").post(`/projects/${ids.pid}/builds`, { files: [{ format: "yaml", content: "cart.empty: Empty\ncheckout.title: Pay\n" }] });
      expect(again.body.build_id).toBe(body.build_id);
    },
  },
  { name: "a build without files is 400 naming them", method: "POST", url: "/projects/:pid/builds", body: { files: [] }, status: 400, contains: ['"files"'] },
  { name: "a build file that does not read is 400 naming it", method: "POST", url: "/projects/:pid/builds", body: { files: [{ format: "json", content: "{" }] }, status: 400, contains: ['"files[0].content"'] },
  { name: "registering in an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/builds", body: { files: [{ format: "json", content: BASE_JSON }] }, status: 404 },
  {
    name: "a member lists the builds with what each leaves out of the latest release",
    before: register,
    as: "member",
    method: "GET",
    url: "/projects/:pid/builds",
    status: 200,
    after(_ctx, body) {
      expect(body.items).toHaveLength(1);
      expect(body.items[0]).toMatchObject({ name: "App 1.0", left_out: 0 });
    },
  },
  { name: "an unknown project's builds are 404", method: "GET", url: "/projects/prj_00000000000000000000/builds", status: 404 },
];

scenarios("delivery", standardWorld, rows);
coverage("delivery", rows);
