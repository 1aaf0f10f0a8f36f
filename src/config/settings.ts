import { CliError } from "../common/errors.ts";
import { PASSWORD_MIN_LENGTH } from "../common/limits.ts";

/**
 * node:path and the address parser are required when a value is parsed, not when this module
 * loads: the table is read by every command for its flags (cli/args.ts), and loading the two costs
 * `phrasebook version` about 10 ms of its 50 (bench/RESULTS.md "Start-up").
 */
const ipaddr = (): typeof import("ipaddr.js") => require("ipaddr.js");
const resolvePath = (path: string): string => (require("node:path") as typeof import("node:path")).resolve(path);

/**
 * Every setting in one table (docs/product.md §1): environment variable, the flag that overrides
 * it, default, and a parser that validates. A bad value stops the start with one line naming it.
 */
export interface Settings {
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string;
  /**
   * Whether the operator set the public URL (PHRASEBOOK_PUBLIC_URL / --public-url) rather than
   * leaving the default: then it is the only origin browsers may send changes from
   * (docs/deploy.md "Security notes"), and `Host` is never trusted for it.
   */
  publicUrlSet: boolean;
  cdnUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  rateLimit: number;
  rateWindowSeconds: number;
  apiCacheTtlSeconds: number;
  cdnCacheMb: number;
  webhookRetryDelaysSeconds: number[];
  webhookTimeoutSeconds: number;
  webhookAllowCidrs: string[];
  logRequests: boolean;
  metrics: boolean;
  trustedProxies: string[];
  /** The project role of a non-admin user without one of their own (docs/dashboard-api.md "Project roles"). */
  defaultProjectRole: "none" | "viewer" | "translator" | "reviewer" | "developer" | "publisher" | "admin";
  /** Continuous replication (docs/deploy.md "Continuous replication"): a folder or s3://bucket/path; unset = off. */
  replicaUrl: string | undefined;
  replicaS3Endpoint: string | undefined;
  replicaS3Region: string | undefined;
  replicaSyncIntervalSeconds: number;
  litestreamBin: string;
  /** Single sign-on (docs/deploy.md "Single sign-on"): off while the issuer is unset. */
  oidcIssuer: string | undefined;
  oidcClientId: string | undefined;
  oidcClientSecret: string | undefined;
  oidcName: string;
  oidcScopes: string[];
  oidcGroupsClaim: string;
  oidcAdminGroups: string[];
  oidcAllowedGroups: string[];
  oidcAllowedDomains: string[];
  oidcSessionHours: number;
  /** false: only break-glass users (made by `phrasebook user create`) sign in with a password. */
  passwordLogin: boolean;
  /** Machine translation (docs/deploy.md "Machine translation"): off while the kind is unset. */
  mtKind: MachineTranslationKind | undefined;
  /** The engine's base URL; the server appends the engine's path to it. */
  mtUrl: string | undefined;
  /** Sent to the engine only, never logged. */
  mtKey: string | undefined;
  mtModel: string | undefined;
  /**
   * Object storage behind another CDN (docs/deploy.md "Object storage and CDN purge"): every CDN
   * path mirrored to `{s3Prefix}/{path}` in the bucket; off while the bucket is unset. The keys
   * fall back to AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (targets/mirror/location.ts).
   */
  s3Endpoint: string | undefined;
  s3Bucket: string | undefined;
  s3Region: string;
  s3Prefix: string;
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  s3VirtualHosted: boolean;
  /** The cache purged when `latest`, a channel or a manifest changes; unset: none. */
  purge: "cloudflare" | "fastly" | "http" | undefined;
  purgeApi: string | undefined;
  purgeZone: string | undefined;
  purgeService: string | undefined;
  purgeToken: string | undefined;
  purgeUrl: string | undefined;
  purgeSecret: string | undefined;
  /** How long one import may run before it is stopped (docs/publishing.md §6 "Time limit and cancelling"). */
  importTimeoutSeconds: number;
  /** Changes one person or token may make per minute through the dashboard API (docs/deploy.md "Security notes"). */
  writeRateLimit: number;
}

/** The machine translation engines the server can call (machine-translation/registry.ts has one file per kind). */
export const MT_KINDS = ["libretranslate", "openai"] as const;
export type MachineTranslationKind = (typeof MT_KINDS)[number];

type Source = Record<string, string | undefined>;

interface Spec<K extends keyof Settings> {
  key: K;
  env: string;
  flag: string;
  help: string;
  parse: (raw: string | undefined, so: Partial<Settings>) => Settings[K];
}

function fail(env: string, why: string, raw: string | undefined): never {
  throw new CliError(`${env}: ${why} (got ${JSON.stringify(raw)})`);
}

function integer(env: string, raw: string | undefined, dflt: number, min: number, max: number): number {
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d+$/.test(raw.trim())) fail(env, `must be a whole number from ${min} to ${max}`, raw);
  const n = Number(raw.trim());
  if (n < min || n > max) fail(env, `must be a whole number from ${min} to ${max}`, raw);
  return n;
}

function positiveSeconds(env: string, raw: string, original: string | undefined): number {
  const n = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 86_400) {
    fail(env, "must be positive numbers of seconds, at most 86400", original);
  }
  return n;
}

/**
 * A URL setting is taken as written: spaces around it (a copied line, a quoted value in a unit
 * file) stop the start instead of being trimmed, since `new URL` would drop them silently here
 * while the same value compared elsewhere (an issuer, character for character) would not match
 * (docs/deploy.md "Single sign-on").
 */
function noSurroundingSpace(env: string, raw: string | undefined): void {
  if (raw !== undefined && raw !== raw.trim()) fail(env, "has spaces before or after the URL; remove them", raw);
}

function origin(env: string, raw: string | undefined): string {
  noSurroundingSpace(env, raw);
  let url: URL;
  try {
    url = new URL(raw!);
  } catch {
    fail(env, "must be an absolute http(s) URL", raw);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail(env, "must be an absolute http(s) URL", raw);
  if (url.search || url.hash || url.username || url.password) fail(env, "must not carry a query, fragment or credentials", raw);
  // Keep the path (a proxy may mount us under a prefix) but never a trailing slash.
  return url.toString().replace(/\/+$/, "");
}

/** Comma-separated address ranges; a bare address counts as a single-address range. */
function cidrList(env: string, raw: string | undefined): string[] {
  const list = (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return list.map((entry) => {
    try {
      if (entry.includes("/")) ipaddr().parseCIDR(entry);
      else return `${entry}/${ipaddr().parse(entry).kind() === "ipv4" ? 32 : 128}`;
      return entry;
    } catch {
      fail(env, `"${entry}" is not an address range like 10.0.0.0/8`, raw);
    }
  });
}

function bool(env: string, raw: string | undefined, dflt: boolean): boolean {
  if (raw === undefined || raw === "") return dflt;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  fail(env, "must be true or false", raw);
}

/** A comma list of names (groups, domains), trimmed, empty entries dropped. */
function commaList(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/** Whether a host name is a loopback address (an http issuer is allowed only there). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  try {
    return ipaddr().parse(host).range() === "loopback";
  } catch {
    return false;
  }
}

/**
 * The OpenID issuer: https, or http on a loopback address only (a provider on the same machine,
 * tests); anything else would send the sign-in's code and tokens in clear text (docs/deploy.md
 * "Single sign-on").
 */
function issuer(env: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  noSurroundingSpace(env, raw);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(env, "must be an absolute https URL", raw);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) fail(env, "must be https (http only on a loopback address)", raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(env, "must be an absolute https URL", raw);
  if (url.search || url.hash || url.username || url.password) fail(env, "must not carry a query, fragment or credentials", raw);
  // Kept as written: an issuer is compared exactly, and some end in a slash (Authentik).
  return raw;
}

/**
 * A single sign-on setting other than the issuer, set without PHRASEBOOK_OIDC_ISSUER, would do
 * nothing, silently (a client id pasted, the issuer forgotten): it stops the start naming itself
 * (docs/deploy.md "Single sign-on"). Every `PHRASEBOOK_OIDC_*` row of the table is held to it,
 * those added later too. The secret's value is never echoed.
 */
function refuseWithoutIssuer(spec: Spec<keyof Settings>, raw: string | undefined, so: Partial<Settings>): void {
  if (!spec.env.startsWith("PHRASEBOOK_OIDC_") || spec.key === "oidcIssuer") return;
  if (raw === undefined || raw.trim() === "" || so.oidcIssuer !== undefined) return;
  fail(spec.env, "is set, but PHRASEBOOK_OIDC_ISSUER is not: set the issuer to offer single sign-on, or remove this setting", spec.key === "oidcClientSecret" ? "[hidden]" : raw);
}

export const SETTINGS: Spec<keyof Settings>[] = [
  { key: "host", env: "PHRASEBOOK_HOST", flag: "--host", help: "listen address", parse: (r) => (r?.trim() || "0.0.0.0") },
  {
    key: "port", env: "PHRASEBOOK_PORT", flag: "--port", help: "listen port (0 picks a free one)",
    parse: (r) => integer("PHRASEBOOK_PORT", r, 8080, 0, 65535),
  },
  {
    key: "dataDir", env: "PHRASEBOOK_DATA_DIR", flag: "--data-dir", help: "SQLite database and release files",
    parse: (r) => resolvePath(r?.trim() || "./data"),
  },
  {
    key: "publicUrl", env: "PHRASEBOOK_PUBLIC_URL", flag: "--public-url", help: "external origin; {base_url} is this + /v1",
    parse: (r, so) => (r ? origin("PHRASEBOOK_PUBLIC_URL", r) : `http://localhost:${so.port || 8080}`),
  },
  {
    key: "cdnUrl", env: "PHRASEBOOK_CDN_URL", flag: "--cdn-url", help: "external CDN address used in download_urls",
    parse: (r, so) => (r ? origin("PHRASEBOOK_CDN_URL", r) : `${so.publicUrl}/cdn`),
  },
  { key: "adminEmail", env: "PHRASEBOOK_ADMIN_EMAIL", flag: "--admin-email", help: "bootstrap admin email", parse: (r) => r || undefined },
  {
    key: "adminPassword", env: "PHRASEBOOK_ADMIN_PASSWORD", flag: "--admin-password", help: "bootstrap admin password",
    parse: (r) => {
      if (r !== undefined && r !== "" && r.length < PASSWORD_MIN_LENGTH) fail("PHRASEBOOK_ADMIN_PASSWORD", `must be at least ${PASSWORD_MIN_LENGTH} characters`, "[hidden]");
      return r || undefined;
    },
  },
  {
    key: "rateLimit", env: "PHRASEBOOK_RATE_LIMIT", flag: "--rate-limit", help: "API requests per token per window",
    parse: (r) => integer("PHRASEBOOK_RATE_LIMIT", r, 600, 1, 10_000_000),
  },
  {
    key: "rateWindowSeconds", env: "PHRASEBOOK_RATE_WINDOW", flag: "--rate-window", help: "rate-limit window, seconds",
    parse: (r) => integer("PHRASEBOOK_RATE_WINDOW", r, 60, 1, 86_400),
  },
  {
    key: "apiCacheTtlSeconds", env: "PHRASEBOOK_API_CACHE_TTL", flag: "--api-cache-ttl", help: "API response cache, seconds (0 turns it off)",
    parse: (r) => integer("PHRASEBOOK_API_CACHE_TTL", r, 60, 0, 86_400),
  },
  {
    key: "cdnCacheMb", env: "PHRASEBOOK_CDN_CACHE_MB", flag: "--cdn-cache-mb", help: "memory the CDN cache may hold, MB",
    parse: (r) => integer("PHRASEBOOK_CDN_CACHE_MB", r, 256, 0, 1_048_576),
  },
  {
    key: "webhookRetryDelaysSeconds", env: "PHRASEBOOK_WEBHOOK_RETRY_DELAYS", flag: "--webhook-retry-delays",
    help: "seconds between the 5 webhook attempts",
    parse: (r) => {
      const raw = r?.trim() || "1,16,81,256";
      const parts = raw.split(",");
      // docs/interface.md §6.4 rule 3: 5 attempts in total, so exactly 4 gaps.
      if (parts.length !== 4) fail("PHRASEBOOK_WEBHOOK_RETRY_DELAYS", "must be 4 comma-separated gaps in seconds", r);
      return parts.map((p) => positiveSeconds("PHRASEBOOK_WEBHOOK_RETRY_DELAYS", p, r));
    },
  },
  {
    key: "webhookTimeoutSeconds", env: "PHRASEBOOK_WEBHOOK_TIMEOUT", flag: "--webhook-timeout", help: "seconds to wait for a receiver",
    parse: (r) => (r === undefined || r === "" ? 30 : positiveSeconds("PHRASEBOOK_WEBHOOK_TIMEOUT", r, r)),
  },
  {
    key: "webhookAllowCidrs", env: "PHRASEBOOK_WEBHOOK_ALLOW_CIDRS", flag: "--webhook-allow-cidrs",
    help: "address ranges exempt from the private-address refusal",
    parse: (r) => cidrList("PHRASEBOOK_WEBHOOK_ALLOW_CIDRS", r),
  },
  {
    key: "logRequests", env: "PHRASEBOOK_LOG_REQUESTS", flag: "--log-requests", help: "one JSON log line per request",
    parse: (r) => bool("PHRASEBOOK_LOG_REQUESTS", r, true),
  },
  {
    key: "metrics", env: "PHRASEBOOK_METRICS", flag: "--metrics", help: "serve GET /metrics (Prometheus text format)",
    parse: (r) => bool("PHRASEBOOK_METRICS", r, true),
  },
  {
    key: "trustedProxies", env: "PHRASEBOOK_TRUSTED_PROXIES", flag: "--trusted-proxies",
    help: "address ranges of reverse proxies whose X-Forwarded-For is believed",
    parse: (r) => cidrList("PHRASEBOOK_TRUSTED_PROXIES", r),
  },
  {
    key: "replicaUrl", env: "PHRASEBOOK_REPLICA_URL", flag: "--replica-url",
    help: "replicate continuously (Litestream) to this folder or s3://bucket/path",
    parse: (r) => replicaUrl("PHRASEBOOK_REPLICA_URL", r),
  },
  {
    key: "replicaS3Endpoint", env: "PHRASEBOOK_REPLICA_S3_ENDPOINT", flag: "--replica-s3-endpoint",
    help: "endpoint of S3-compatible storage (unset: AWS S3)",
    parse: (r) => (r?.trim() ? origin("PHRASEBOOK_REPLICA_S3_ENDPOINT", r) : undefined),
  },
  {
    key: "replicaS3Region", env: "PHRASEBOOK_REPLICA_S3_REGION", flag: "--replica-s3-region", help: "region of the S3 bucket",
    parse: (r) => r?.trim() || undefined,
  },
  {
    key: "replicaSyncIntervalSeconds", env: "PHRASEBOOK_REPLICA_SYNC_INTERVAL", flag: "--replica-sync-interval",
    help: "seconds between copies of the database's changes to the replica",
    parse: (r) => {
      if (r === undefined || r.trim() === "") return 0.25;
      const n = Number(r.trim());
      // Below 0.05 s Litestream would only spin; a longer interval trades recovery point for fewer
      // requests to S3 (docs/deploy.md "Continuous replication").
      if (!Number.isFinite(n) || n < 0.05 || n > 60) fail("PHRASEBOOK_REPLICA_SYNC_INTERVAL", "must be seconds from 0.05 to 60", r);
      return n;
    },
  },
  {
    key: "litestreamBin", env: "PHRASEBOOK_LITESTREAM", flag: "--litestream", help: "the litestream executable (replication and restore)",
    parse: (r) => r?.trim() || "litestream",
  },
  {
    key: "oidcIssuer", env: "PHRASEBOOK_OIDC_ISSUER", flag: "--oidc-issuer",
    help: "OpenID Connect issuer (https; http on loopback only); set to offer single sign-on",
    parse: (r) => issuer("PHRASEBOOK_OIDC_ISSUER", r),
  },
  {
    key: "oidcClientId", env: "PHRASEBOOK_OIDC_CLIENT_ID", flag: "--oidc-client-id", help: "the client id registered at the provider",
    parse: (r, so) => {
      const id = r?.trim() || undefined;
      if (so.oidcIssuer && !id) fail("PHRASEBOOK_OIDC_CLIENT_ID", "is required when PHRASEBOOK_OIDC_ISSUER is set", r);
      return id;
    },
  },
  {
    key: "oidcClientSecret", env: "PHRASEBOOK_OIDC_CLIENT_SECRET", flag: "--oidc-client-secret", help: "the client secret (empty: a public client)",
    parse: (r) => r || undefined,
  },
  { key: "oidcName", env: "PHRASEBOOK_OIDC_NAME", flag: "--oidc-name", help: "the single sign-on button's name", parse: (r) => r?.trim() || "Single sign-on" },
  {
    key: "oidcScopes", env: "PHRASEBOOK_OIDC_SCOPES", flag: "--oidc-scopes", help: "scopes asked for, separated by spaces",
    parse: (r) => {
      const scopes = (r?.trim() || "openid email profile").split(/\s+/);
      if (!scopes.includes("openid")) fail("PHRASEBOOK_OIDC_SCOPES", "must include openid", r);
      return scopes;
    },
  },
  { key: "oidcGroupsClaim", env: "PHRASEBOOK_OIDC_GROUPS_CLAIM", flag: "--oidc-groups-claim", help: "the claim that lists the user's groups", parse: (r) => r?.trim() || "groups" },
  { key: "oidcAdminGroups", env: "PHRASEBOOK_OIDC_ADMIN_GROUPS", flag: "--oidc-admin-groups", help: "groups whose members are admins (re-read at every sign-in)", parse: commaList },
  { key: "oidcAllowedGroups", env: "PHRASEBOOK_OIDC_ALLOWED_GROUPS", flag: "--oidc-allowed-groups", help: "groups allowed to sign in (empty: any)", parse: commaList },
  {
    key: "oidcAllowedDomains", env: "PHRASEBOOK_OIDC_ALLOWED_DOMAINS", flag: "--oidc-allowed-domains", help: "email domains allowed to sign in (empty: any)",
    parse: (r) => commaList(r).map((d) => d.toLowerCase().replace(/^@/, "")),
  },
  {
    key: "oidcSessionHours", env: "PHRASEBOOK_OIDC_SESSION_HOURS", flag: "--oidc-session-hours", help: "hours a single sign-on session lasts before the groups are read again",
    parse: (r) => integer("PHRASEBOOK_OIDC_SESSION_HOURS", r, 12, 1, 336),
  },
  {
    key: "passwordLogin", env: "PHRASEBOOK_PASSWORD_LOGIN", flag: "--password-login", help: "offer password sign-in (false: break-glass users only)",
    parse: (r, so) => {
      const on = bool("PHRASEBOOK_PASSWORD_LOGIN", r, true);
      // Without single sign-on, only break-glass accounts could sign in: surely not what was meant.
      if (!on && !so.oidcIssuer) fail("PHRASEBOOK_PASSWORD_LOGIN", "can be false only with PHRASEBOOK_OIDC_ISSUER set", r);
      return on;
    },
  },
  {
    key: "mtKind", env: "PHRASEBOOK_MT_KIND", flag: "--mt-kind", help: "machine translation engine: libretranslate or openai (unset: none)",
    parse: (r) => {
      const v = r?.trim().toLowerCase();
      if (!v) return undefined;
      if (!(MT_KINDS as readonly string[]).includes(v)) fail("PHRASEBOOK_MT_KIND", `must be one of ${MT_KINDS.join(", ")}`, r);
      return v as MachineTranslationKind;
    },
  },
  {
    key: "mtUrl", env: "PHRASEBOOK_MT_URL", flag: "--mt-url", help: "the engine's base URL (the server appends /translate or /v1/chat/completions)",
    parse: (r, so) => {
      if (r === undefined || r === "") {
        if (so.mtKind) fail("PHRASEBOOK_MT_URL", "is required when PHRASEBOOK_MT_KIND is set", r);
        return undefined;
      }
      if (r.trim() !== r) fail("PHRASEBOOK_MT_URL", "must not start or end with white space", r);
      if (!so.mtKind) fail("PHRASEBOOK_MT_URL", "needs PHRASEBOOK_MT_KIND (libretranslate or openai)", r);
      return origin("PHRASEBOOK_MT_URL", r);
    },
  },
  {
    // Never echoed: a bad value is named without its text.
    key: "mtKey", env: "PHRASEBOOK_MT_KEY", flag: "--mt-key", help: "the engine's API key (sent to the engine only, never logged)",
    parse: (r) => r || undefined,
  },
  {
    key: "mtModel", env: "PHRASEBOOK_MT_MODEL", flag: "--mt-model", help: "the model an openai engine is asked for",
    parse: (r, so) => {
      const v = r?.trim() || undefined;
      if (so.mtKind === "openai" && !v) fail("PHRASEBOOK_MT_MODEL", "is required when PHRASEBOOK_MT_KIND is openai", r);
      return v;
    },
  },
  {
    key: "importTimeoutSeconds", env: "PHRASEBOOK_IMPORT_TIMEOUT", flag: "--import-timeout", help: "seconds one import may run before it is stopped",
    parse: (r) => (r === undefined || r === "" ? 300 : positiveSeconds("PHRASEBOOK_IMPORT_TIMEOUT", r, r)),
  },
  {
    key: "writeRateLimit", env: "PHRASEBOOK_WRITE_RATE_LIMIT", flag: "--write-rate-limit", help: "dashboard API changes per person or token per minute",
    parse: (r) => integer("PHRASEBOOK_WRITE_RATE_LIMIT", r, 300, 1, 1_000_000),
  },
  {
    key: "defaultProjectRole", env: "PHRASEBOOK_DEFAULT_PROJECT_ROLE", flag: "--default-project-role",
    help: "project role of users without one of their own (none, viewer, ..., admin)",
    parse: (r) => {
      const v = (r?.trim() || "none").toLowerCase();
      const roles = ["none", "viewer", "translator", "reviewer", "developer", "publisher", "admin"] as const;
      if (!(roles as readonly string[]).includes(v)) fail("PHRASEBOOK_DEFAULT_PROJECT_ROLE", `must be one of ${roles.join(", ")}`, r);
      return v as Settings["defaultProjectRole"];
    },
  },
  {
    key: "s3Endpoint", env: "PHRASEBOOK_S3_ENDPOINT", flag: "--s3-endpoint", help: "mirror: endpoint of S3-compatible storage (unset: AWS S3)",
    parse: (r) => (r?.trim() ? origin("PHRASEBOOK_S3_ENDPOINT", r.trim()) : undefined),
  },
  {
    key: "s3Bucket", env: "PHRASEBOOK_S3_BUCKET", flag: "--s3-bucket", help: "mirror every CDN path to this bucket (unset: no mirror)",
    parse: (r, so) => {
      const bucket = r?.trim() || undefined;
      // S3's bucket naming rules (R2, MinIO and Garage keep them).
      if (bucket !== undefined && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) fail("PHRASEBOOK_S3_BUCKET", "must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens", r);
      if (bucket === undefined && so.s3Endpoint) fail("PHRASEBOOK_S3_BUCKET", "is required when PHRASEBOOK_S3_ENDPOINT is set", r);
      return bucket;
    },
  },
  { key: "s3Region", env: "PHRASEBOOK_S3_REGION", flag: "--s3-region", help: "mirror: the bucket's region (R2: auto)", parse: (r) => r?.trim() || "us-east-1" },
  {
    key: "s3Prefix", env: "PHRASEBOOK_S3_PREFIX", flag: "--s3-prefix", help: "mirror: objects are {prefix}/{CDN path}",
    parse: (r, so) => {
      const prefix = (r ?? "").trim().replace(/^\/+|\/+$/g, "");
      const badFolder = prefix !== "" && prefix.split("/").some((part) => part === "" || part === "." || part === "..");
      if (prefix.length > S3_PREFIX_MAX_LENGTH || !/^[A-Za-z0-9._\-/]*$/.test(prefix) || badFolder) {
        fail("PHRASEBOOK_S3_PREFIX", `must be folder names of letters, digits, '.', '_' or '-' separated by '/', at most ${S3_PREFIX_MAX_LENGTH} characters`, r);
      }
      if (so.s3Bucket && overlapsReplica(so, so.s3Bucket, prefix)) {
        fail("PHRASEBOOK_S3_PREFIX", "the mirror would share its prefix with the replica (PHRASEBOOK_REPLICA_URL) in the same bucket; give each a folder of its own", r);
      }
      return prefix;
    },
  },
  { key: "s3AccessKeyId", env: "PHRASEBOOK_S3_ACCESS_KEY_ID", flag: "--s3-access-key-id", help: "mirror: access key id (default AWS_ACCESS_KEY_ID)", parse: (r) => r?.trim() || undefined },
  { key: "s3SecretAccessKey", env: "PHRASEBOOK_S3_SECRET_ACCESS_KEY", flag: "--s3-secret-access-key", help: "mirror: secret access key (default AWS_SECRET_ACCESS_KEY)", parse: (r) => r?.trim() || undefined },
  {
    key: "s3VirtualHosted", env: "PHRASEBOOK_S3_VIRTUAL_HOSTED", flag: "--s3-virtual-hosted", help: "mirror: bucket.host/key requests instead of host/bucket/key",
    parse: (r) => bool("PHRASEBOOK_S3_VIRTUAL_HOSTED", r, false),
  },
  {
    key: "purge", env: "PHRASEBOOK_PURGE", flag: "--purge", help: "purge the CDN in front when latest or a channel changes: cloudflare, fastly or http",
    parse: (r) => {
      const v = r?.trim().toLowerCase() || undefined;
      if (v !== undefined && !PURGE_KINDS.includes(v as never)) fail("PHRASEBOOK_PURGE", `must be one of ${PURGE_KINDS.join(", ")}`, r);
      return v as Settings["purge"];
    },
  },
  {
    key: "purgeApi", env: "PHRASEBOOK_PURGE_API", flag: "--purge-api", help: "purge: the vendor's API (default its public one)",
    parse: (r) => (r?.trim() ? origin("PHRASEBOOK_PURGE_API", r.trim()) : undefined),
  },
  { key: "purgeZone", env: "PHRASEBOOK_PURGE_ZONE", flag: "--purge-zone", help: "purge: the Cloudflare zone id", parse: (r, so) => required(so, "cloudflare", "PHRASEBOOK_PURGE_ZONE", r) },
  { key: "purgeService", env: "PHRASEBOOK_PURGE_SERVICE", flag: "--purge-service", help: "purge: the Fastly service id", parse: (r, so) => required(so, "fastly", "PHRASEBOOK_PURGE_SERVICE", r) },
  {
    key: "purgeToken", env: "PHRASEBOOK_PURGE_TOKEN", flag: "--purge-token", help: "purge: the Cloudflare API token or Fastly API key",
    parse: (r, so) => {
      const token = r?.trim() || undefined;
      if (!token && (so.purge === "cloudflare" || so.purge === "fastly")) fail("PHRASEBOOK_PURGE_TOKEN", `is required when PHRASEBOOK_PURGE is ${so.purge}`, "[hidden]");
      return token;
    },
  },
  {
    key: "purgeUrl", env: "PHRASEBOOK_PURGE_URL", flag: "--purge-url", help: "purge: the operator's endpoint that purges (PHRASEBOOK_PURGE=http)",
    parse: (r, so) => {
      const value = required(so, "http", "PHRASEBOOK_PURGE_URL", r);
      if (value === undefined) return undefined;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        fail("PHRASEBOOK_PURGE_URL", "must be an absolute http(s) URL", "[hidden]");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") fail("PHRASEBOOK_PURGE_URL", "must be an absolute http(s) URL", "[hidden]");
      return value;
    },
  },
  { key: "purgeSecret", env: "PHRASEBOOK_PURGE_SECRET", flag: "--purge-secret", help: "purge: the secret that signs the http purge's requests", parse: (r) => r || undefined },
];

export const PURGE_KINDS = ["cloudflare", "fastly", "http"] as const;
/** Room for the CDN path under the prefix within S3's 1,024 bytes of a key. */
export const S3_PREFIX_MAX_LENGTH = 512;

/** A purge kind's setting: required with that kind, else whatever was given (it is not used). */
function required(so: Partial<Settings>, kind: NonNullable<Settings["purge"]>, env: string, raw: string | undefined): string | undefined {
  const value = raw?.trim() || undefined;
  if (!value && so.purge === kind) fail(env, `is required when PHRASEBOOK_PURGE is ${kind}`, raw);
  return value;
}

/**
 * Whether the mirror's objects would lie among the replica's in one bucket (docs/deploy.md
 * "Object storage and CDN purge"): `mirror sync` deletes what the CDN would not serve under its
 * prefix, so a replica inside it, or around it, would be deleted.
 */
function overlapsReplica(so: Partial<Settings>, bucket: string, prefix: string): boolean {
  const replica = so.replicaUrl;
  if (!replica?.startsWith("s3://")) return false;
  const rest = replica.slice("s3://".length);
  const slash = rest.indexOf("/");
  if ((slash === -1 ? rest : rest.slice(0, slash)) !== bucket) return false;
  if ((so.replicaS3Endpoint ?? "") !== (so.s3Endpoint ?? "")) return false;
  const path = slash === -1 ? "" : rest.slice(slash + 1).replace(/^\/+|\/+$/g, "");
  const within = (a: string, b: string) => a === "" || b === a || b.startsWith(`${a}/`);
  return within(prefix, path) || within(path, prefix);
}

/**
 * A replica is an absolute folder path or `s3://bucket[/path]` (docs/deploy.md "Continuous
 * replication"); a relative path would depend on the directory the service starts in.
 */
function replicaUrl(env: string, raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value.startsWith("s3://")) {
    if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?#]*)?$/.test(value)) fail(env, "must be s3://bucket/path with a valid bucket name", raw);
    return value.replace(/\/+$/, "");
  }
  if (value.startsWith("file://")) return replicaUrl(env, value.slice("file://".length));
  if (!value.startsWith("/")) fail(env, "must be an absolute folder path or s3://bucket/path", raw);
  return resolvePath(value);
}

/** Reads settings from the environment, then lets `--flag value` / `--flag=value` override. */
export function loadSettings(env: Source, flags: Source = {}): Settings {
  const out: Partial<Settings> = {};
  for (const spec of SETTINGS) {
    const raw = flags[spec.flag] ?? env[spec.env];
    refuseWithoutIssuer(spec, raw, out);
    (out as Record<string, unknown>)[spec.key] = spec.parse(raw, out);
  }
  out.publicUrlSet = Boolean(flags["--public-url"] ?? env.PHRASEBOOK_PUBLIC_URL);
  return out as Settings;
}

/** Turns a URL's path into the prefix the server mounts routes under ("" for the root). */
export function pathPrefix(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, "");
}
