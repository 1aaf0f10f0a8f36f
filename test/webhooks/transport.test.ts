/**
 * The connection itself (interface §6.4 rule 2, §6.5, product §5), from the sender of the app
 * in-process to real receivers: TLS failures, connection and DNS errors, huge and endless response
 * bodies, and proxy variables in the environment. While this file runs, HTTPS_PROXY, ALL_PROXY and
 * HTTP_PROXY point at a listener that counts connections: a proxy would resolve the receiver's
 * name again, past the address check.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, startSilentListener, testCa, type CertKind, type Receiver } from "../helpers/https-receiver.ts";
import { freePort } from "../helpers/server.ts";
import { addEndpoint, fire as fireOn, isFinished, startWebhookApp, waitForDelivery, type WebhookHarness } from "./fixture.ts";

// Real receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

const LOGGED_BODY_LIMIT_BYTES = 8192;
const TEN_MB = 10 * 1024 * 1024;
const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"];

let h: WebhookHarness;
let proxy: ReturnType<typeof startSilentListener>;
const savedEnv = new Map<string, string | undefined>();
const receivers: Receiver[] = [];

async function receiver(options: { cert?: CertKind; handler?: Receiver["handler"] } = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  receivers.push(r);
  return r;
}

const fire = (wid: string) => fireOn(h, wid);

beforeAll(async () => {
  proxy = startSilentListener();
  // fetch reads the proxy variables of the process at each request, so the sender in this process sees them.
  for (const name of PROXY_VARIABLES) {
    savedEnv.set(name, process.env[name]);
    process.env[name] = `http://127.0.0.1:${proxy.port}`;
  }
  h = await startWebhookApp();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await h?.stop();
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  proxy?.stop();
});

describe("product §5: proxies are never used", () => {
  test("product §5: with HTTPS_PROXY, ALL_PROXY and HTTP_PROXY set, deliveries go straight to the vetted address", async () => {
    const r = await receiver();
    const wid = await addEndpoint(h, r.url(), ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), isFinished);
    expect(d.status).toBe("succeeded");
    expect(r.requests).toHaveLength(1);
    expect(proxy.connections()).toBe(0);
    // The variables are live: an ordinary fetch from this process goes to the proxy.
    const plain = await fetch(r.url(), { method: "POST", tls: { ca: testCa().caPem }, signal: AbortSignal.timeout(100) }).catch(() => "no answer");
    expect(plain).toBe("no answer");
    expect(proxy.connections()).toBe(1);
    expect(r.requests).toHaveLength(1);
  });
});

describe("interface §6.4 rule 2: TLS and connection failures", () => {
  const cases: [CertKind, string][] = [
    ["self-signed", "TLS error: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)"],
    ["wrong-name", "TLS error: certificate does not match the host name (ERR_TLS_CERT_ALTNAME_INVALID)"],
    ["expired", "TLS error: certificate has expired (CERT_HAS_EXPIRED)"],
  ];
  for (const [cert, reason] of cases) {
    test(`interface §6.4 rule 2: a ${cert} certificate fails the attempt before any request is sent`, async () => {
      const r = await receiver({ cert });
      const wid = await addEndpoint(h, r.url(), ["key_created"]);
      const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
      expect(d.attempts[0].failure_reason).toBe(reason);
      expect(d.attempts[0].response_status).toBeNull();
      expect(r.requests).toHaveLength(0);
      await h.client.patch(`/projects/${h.pid}/webhooks/${wid}`, { enabled: false });
    });
  }

  test("interface §6.4 rule 2: a refused connection fails the attempt", async () => {
    const wid = await addEndpoint(h, `https://127.0.0.1:${await freePort()}/hook`, ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
    expect(d.attempts[0].failure_reason).toMatch(/^connection refused/);
    await h.client.patch(`/projects/${h.pid}/webhooks/${wid}`, { enabled: false });
  });

  test("interface §6.4 rule 2: a DNS failure fails the attempt and says so", async () => {
    const wid = await addEndpoint(h, "https://no-such-host.invalid/hook", ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
    expect(d.attempts[0].failure_reason).toStartWith("DNS lookup of no-such-host.invalid failed");
    await h.client.patch(`/projects/${h.pid}/webhooks/${wid}`, { enabled: false });
  });
});

describe("interface §6.5: response bodies are read only up to 8 KB", () => {
  test("interface §6.5: 10 MB and never-ending bodies keep 8 KB in the log, end at once, and leave memory bounded", async () => {
    const CHUNK = 64 * 1024;
    const chunk = new Uint8Array(CHUNK).fill(120);
    const sent = { huge: 0, endless: 0 };
    // Bodies streamed chunk by chunk on demand: the bytes sent show how much the sender really read.
    const streamed = (which: keyof typeof sent, length: number) => () => {
      let mine = 0;
      return new Response(new ReadableStream({
        pull(c) {
          if (mine >= length) return c.close();
          c.enqueue(chunk);
          mine += CHUNK;
          sent[which] += CHUNK;
        },
      }, { highWaterMark: 0 }));
    };
    const huge = await receiver({ handler: streamed("huge", TEN_MB) });
    const endless = await receiver({ handler: streamed("endless", Infinity) });
    const hugeWid = await addEndpoint(h, huge.url(), ["key_created"]);
    const endlessWid = await addEndpoint(h, endless.url(), ["key_created"]);
    const rss = () => process.memoryUsage.rss();
    Bun.gc(true);
    const rssBefore = rss();
    const ROUNDS = 8;
    const dids = [];
    for (let i = 0; i < ROUNDS; i++) dids.push(await fire(hugeWid), await fire(endlessWid));
    let peak = rssBefore;
    for (const did of dids) {
      const d = await waitForDelivery(h, did, (x) => { peak = Math.max(peak, rss()); return isFinished(x); });
      expect(d.status).toBe("succeeded");
      const a = d.attempts[0];
      expect(a.response_body).toHaveLength(LOGGED_BODY_LIMIT_BYTES);
      // The read stops at 8 KB: the endless body never ends, so an attempt that waited for its end
      // would fail on the receiver timeout instead of succeeding (and the bytes sent are counted below).
      expect(a.response_body_truncated).toBe(true);
    }
    expect(huge.requests).toHaveLength(ROUNDS);
    expect(endless.requests).toHaveLength(ROUNDS);
    // Reading whole bodies would pull 10 MB per response (and never end for the endless one); what
    // went beyond 8 KB sat in socket buffers and in flight until the close, which takes longer on a
    // loaded machine: the bound is well below a whole body, not near 8 KB.
    expect(sent.huge / ROUNDS).toBeLessThan(TEN_MB * 0.8);
    expect(sent.endless / ROUNDS).toBeLessThan(TEN_MB * 0.8);
    expect(peak - rssBefore).toBeLessThan(48 * 1024 * 1024);
  });
});
