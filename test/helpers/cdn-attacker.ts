/**
 * A stand-in for whoever sits between an app and the CDN (a proxy, a mirror, a network): on
 * loopback, it forwards `/cdn/...` to the app in-process and, by its `mode`, answers what an
 * attacker would instead (docs/delivery.md "What a loader checks"): a tampered file, a file of
 * another release, an older manifest replayed, a manifest signed by a key the project never had,
 * or a key rotation the old key did not sign. Also serves the loader and
 * i18next's module to a browser page from the same origin.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { portableHashes, publicKeyOf, signFile, type SecretKey } from "../../src/delivery/protocol/crypto.ts";
import { keyComment, manifestComment, parseManifestComment } from "../../src/delivery/protocol/manifest.ts";
import { parseSignature, publicKeyFile, signatureFile } from "../../src/delivery/protocol/minisign.ts";
import { ROOT } from "./server.ts";

export type AttackMode = "pass" | "tamper" | "mix" | "replay" | "unknown-key" | "forged-rotation";

export interface CdnAttacker {
  url: string;
  /** `{url}/cdn`: the CDN's address as the app reaches it. */
  cdnUrl: string;
  mode: AttackMode;
  /** For `mix`: the bytes served in place of every language file. */
  mixWith?: Uint8Array;
  /** For `replay`: an older manifest and its signature, served at every manifest path. */
  replay?: { manifest: Uint8Array; signature: Uint8Array };
  /** Every CDN request seen: its path, the If-None-Match it carried and the status answered. */
  seen: { path: string; ifNoneMatch: string | null; status: number }[];
  stop(): void;
}

function attackerKey(): SecretKey {
  return { keyNumber: crypto.getRandomValues(new Uint8Array(8)), seed: crypto.getRandomValues(new Uint8Array(32)) };
}

const text = (bytes: Uint8Array | string) => new TextEncoder().encode(typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes));

export function startCdnAttacker(app: App): CdnAttacker {
  const evil = attackerKey();
  const evilFile = publicKeyFile({ keyNumber: evil.keyNumber, publicKey: publicKeyOf(evil.seed) });
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body>app</body></html>`;
  const i18next = readFileSync(join(ROOT, "node_modules/i18next/dist/esm/i18next.js"));

  async function upstream(request: Request, path: string): Promise<Response> {
    return app.handle(new Request(`http://localhost:8080${path}`, { method: request.method, headers: request.headers }));
  }

  /** The manifest the CDN answers, signed again with the attacker's key (its trusted comment kept). */
  async function resigned(request: Request, path: string): Promise<Response> {
    const manifest = new Uint8Array(await (await upstream(new Request(request.url), path)).arrayBuffer());
    if (path.endsWith(".minisig")) {
      const real = await (await upstream(new Request(request.url), path)).text();
      const said = parseManifestComment(parseSignature(real).trustedComment)!;
      const body = new Uint8Array(await (await upstream(new Request(request.url), path.slice(0, -".minisig".length))).arrayBuffer());
      return new Response(signatureFile(signFile(body, manifestComment(said.sequence, said.release, said.path), evil, portableHashes), "signature from an attacker"));
    }
    return new Response(manifest as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/json" } });
  }

  const attacker: CdnAttacker = {
    url: "",
    cdnUrl: "",
    mode: "pass",
    seen: [],
    stop: () => server.stop(true),
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/") return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (path === "/i18next.js") return new Response(i18next, { headers: { "content-type": "text/javascript; charset=utf-8" } });
      if (path === "/ota.mjs") return upstream(request, "/client/ota.mjs");
      if (!path.startsWith("/cdn/")) return new Response("not found", { status: 404 });
      const res = await answer(request, path);
      attacker.seen.push({ path: path.slice("/cdn/".length), ifNoneMatch: request.headers.get("if-none-match"), status: res.status });
      // A browser page on this origin reads the CDN's answers here; the CDN's own CORS is kept.
      return res;
    },
  });

  async function answer(request: Request, path: string): Promise<Response> {
    const isManifest = /\/manifest\.json$/.test(path);
    const isSignature = /\/manifest\.json\.minisig$/.test(path);
    const isFile = /\/[A-Za-z-]+\.(json|yaml|arb)$/.test(path) && !isManifest;
    switch (attacker.mode) {
      case "tamper":
        if (isFile) {
          const bytes = new Uint8Array(await (await upstream(new Request(request.url), path)).arrayBuffer());
          bytes[Math.floor(bytes.length / 2)]! ^= 0x20;
          return new Response(bytes, { headers: { "content-type": "application/json" } });
        }
        break;
      case "mix":
        if (isFile && attacker.mixWith) return new Response(attacker.mixWith as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/json" } });
        break;
      case "replay":
        if (isManifest && attacker.replay) return new Response(attacker.replay.manifest as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/json" } });
        if (isSignature && attacker.replay) return new Response(attacker.replay.signature as Uint8Array<ArrayBuffer>);
        break;
      case "unknown-key":
        if (isManifest || isSignature) return resigned(request, path);
        break;
      case "forged-rotation":
        if (isManifest || isSignature) return resigned(request, path);
        // Key 2 is the attacker's, "signed" by the attacker's own key: not by key 1.
        if (/\/keys\/2\.pub$/.test(path)) return new Response(evilFile);
        if (/\/keys\/2\.pub\.minisig$/.test(path)) return new Response(signatureFile(signFile(text(evilFile), keyComment(2), evil, portableHashes), "signature from an attacker"));
        break;
    }
    return upstream(request, path);
  }

  attacker.url = `http://127.0.0.1:${server.port}`;
  attacker.cdnUrl = `${attacker.url}/cdn`;
  return attacker;
}
