import { eq } from "drizzle-orm";
import type { Clock } from "../../common/clock.ts";
import type { Db } from "../../storage/db.ts";
import { serverKeys } from "../../storage/schema.ts";

/** The server key that seals sign-ins under way (server_keys.name). */
const SEAL_KEY_NAME = "sign-in-seal";
const KEY_BYTES = 32;
/** AES-GCM's nonce: 96 random bits per cookie (NIST SP 800-38D §8.2.2). */
const IV_BYTES = 12;
/** No sealed cookie this server writes is longer; a longer value is not read at all. */
export const SEALED_MAX_CHARS = 4096;

/**
 * The server's sealing key, made at its first use: an `INSERT OR IGNORE` and a read, so two
 * processes on one data dir (or two apps in one) agree on the one that was written first.
 */
function sealingKey(db: Db, now: number): Uint8Array<ArrayBuffer> {
  db.insert(serverKeys).values({ name: SEAL_KEY_NAME, secret: Buffer.from(crypto.getRandomValues(new Uint8Array(KEY_BYTES))), createdAt: now }).onConflictDoNothing().run();
  const row = db.select({ secret: serverKeys.secret }).from(serverKeys).where(eq(serverKeys.name, SEAL_KEY_NAME)).get()!;
  return new Uint8Array(row.secret);
}

/**
 * A sign-in under way, kept by the browser that started it (docs/dashboard-api.md "Single
 * sign-on"): what its callback needs (state, nonce, PKCE verifier, where to go next) and until when,
 * sealed with authenticated encryption (AES-256-GCM) under a key only this server holds. Nothing of
 * it is kept on the server, so no number of starts can push out anyone's sign-in, and a cookie
 * that was changed, made elsewhere, sealed for another method or expired opens to nothing.
 *
 * Web Crypto (`crypto.subtle`), which Bun has built in: node:crypto costs a start 10-20 ms to load
 * (docs/architecture.md "Loading only what is used").
 */
export class SignInSeal {
  private key: Promise<CryptoKey> | undefined;

  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  private cryptoKey(): Promise<CryptoKey> {
    this.key ??= crypto.subtle.importKey("raw", sealingKey(this.deps.db, this.deps.clock.now()), "AES-GCM", false, ["encrypt", "decrypt"]);
    return this.key;
  }

  /** `value` sealed for `purpose` (the method's name), good until `expiresAt` (epoch ms): a cookie's value. */
  async seal(purpose: string, value: unknown, expiresAt: number): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const plain = new TextEncoder().encode(JSON.stringify({ e: expiresAt, v: value }));
    const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: new TextEncoder().encode(purpose) }, await this.cryptoKey(), plain);
    return Buffer.concat([iv, new Uint8Array(sealed)]).toString("base64url");
  }

  /** What `cookie` was sealed with for `purpose`, while it has not expired; else null. */
  async open(purpose: string, cookie: string | undefined): Promise<unknown> {
    if (!cookie || cookie.length > SEALED_MAX_CHARS || !/^[A-Za-z0-9_-]+$/.test(cookie)) return null;
    const bytes = Buffer.from(cookie, "base64url");
    if (bytes.byteLength <= IV_BYTES) return null;
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: new TextEncoder().encode(purpose) }, await this.cryptoKey(), bytes.subarray(IV_BYTES));
    } catch {
      return null; // changed, sealed for another purpose or by another key
    }
    const opened = JSON.parse(new TextDecoder().decode(plain)) as { e: number; v: unknown };
    return this.deps.clock.now() < opened.e ? opened.v : null;
  }
}
