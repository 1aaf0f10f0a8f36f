/**
 * A real HTTPS webhook receiver on 127.0.0.1 for tests, with a throwaway certificate authority made
 * by openssl at test time. The server under test trusts it through NODE_EXTRA_CA_CERTS (pass
 * `testCa().caFile` in its environment); in-process senders take `testCa().caPem`.
 * Besides the good certificate there are a self-signed one, one for another name and an expired
 * one, for the TLS failure tests.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./wait.ts";

export type CertKind = "good" | "self-signed" | "wrong-name" | "expired";

export interface TestCa {
  dir: string;
  caFile: string;
  caPem: string;
  certs: Record<CertKind, { cert: string; key: string }>;
}

function openssl(dir: string, args: string[]): void {
  const r = Bun.spawnSync(["openssl", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.toString()}`);
}

const KEY_ARGS = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

function caConfig(dir: string): string {
  return `[ ca ]
default_ca = local
[ local ]
dir = ${dir}
database = ${dir}/index.txt
new_certs_dir = ${dir}
serial = ${dir}/serial
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[ any ]
commonName = supplied
[ good ]
subjectAltName = DNS:receiver.test, DNS:localhost, IP:127.0.0.1, IP:::1
basicConstraints = CA:FALSE
extendedKeyUsage = serverAuth
[ wrong ]
subjectAltName = DNS:other.test
basicConstraints = CA:FALSE
extendedKeyUsage = serverAuth
`;
}

let cached: TestCa | undefined;

/** One CA per test process: generating keys costs a little, and every receiver can share it. */
export function testCa(): TestCa {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), "phrasebook-ca-"));
  writeFileSync(join(dir, "index.txt"), "");
  writeFileSync(join(dir, "serial"), "1000\n");
  writeFileSync(join(dir, "ca.cnf"), caConfig(dir));
  openssl(dir, ["req", "-x509", ...KEY_ARGS, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Phrasebook Test CA"]);
  const signed = (name: string, ext: string, dates: string[]) => {
    openssl(dir, ["req", ...KEY_ARGS, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
    openssl(dir, ["ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", `${name}.csr`, "-out", `${name}.pem`, "-extensions", ext, ...dates]);
  };
  signed("good", "good", ["-days", "2"]);
  signed("wrong-name", "wrong", ["-days", "2"]);
  signed("expired", "good", ["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"]);
  openssl(dir, ["req", "-x509", ...KEY_ARGS, "-keyout", "self-signed.key", "-out", "self-signed.pem", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]);
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  const pair = (n: string) => ({ cert: read(`${n}.pem`), key: read(`${n}.key`) });
  cached = {
    dir,
    caFile: join(dir, "ca.pem"),
    caPem: read("ca.pem"),
    certs: { good: pair("good"), "self-signed": pair("self-signed"), "wrong-name": pair("wrong-name"), expired: pair("expired") },
  };
  return cached;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The raw body exactly as received, for signature checks. */
  body: string;
  receivedAt: number;
}

export type Handler = (req: ReceivedRequest, index: number) => Response | Promise<Response>;

export interface Receiver {
  port: number;
  requests: ReceivedRequest[];
  /** The receiver's https URL, by default on 127.0.0.1. */
  url(path?: string, host?: string): string;
  handler: Handler;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

export interface ReceiverOptions {
  cert?: CertKind;
  handler?: Handler;
  hostname?: string;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const ca = testCa();
  const requests: ReceivedRequest[] = [];
  const receiver = {
    requests,
    handler: options.handler ?? (() => new Response("ok")),
  } as Receiver;
  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: 0,
    idleTimeout: 0, // tests decide how long a receiver stays silent
    tls: ca.certs[options.cert ?? "good"],
    async fetch(request) {
      const headers: Record<string, string> = {};
      request.headers.forEach((v, k) => (headers[k] = v));
      const url = new URL(request.url);
      const rec: ReceivedRequest = { method: request.method, path: url.pathname + url.search, headers, body: await request.text(), receivedAt: Date.now() };
      requests.push(rec);
      return receiver.handler(rec, requests.length - 1);
    },
  });
  receiver.port = server.port!;
  receiver.url = (path = "/hook", host = "127.0.0.1") => `https://${host}:${server.port}${path}`;
  receiver.waitFor = (count, timeoutMs = 10_000) => eventually(() => requests.length >= count && requests, { timeoutMs, what: () => `receiver got ${requests.length} of ${count} requests` });
  receiver.stop = async () => {
    await server.stop(true);
  };
  return receiver;
}

/** A TCP listener that accepts connections and never says a word (for timeouts), counting them. */
export function startSilentListener(): { port: number; connections: () => number; stop(): void } {
  let count = 0;
  const sockets = new Set<import("bun").Socket<undefined>>();
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(s) {
        count++;
        sockets.add(s);
      },
      data() {},
      close(s) {
        sockets.delete(s);
      },
    },
  });
  return {
    port: listener.port,
    connections: () => count,
    stop() {
      for (const s of sockets) s.end();
      listener.stop(true);
    },
  };
}
