import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The whole data model. Row ids are internal; every table a client can name has a random
 * `public_id` (never a row number). Times are epoch milliseconds, rendered as ISO 8601 at the edge.
 */

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  publicId: text("public_id").notNull().unique(),
  email: text("email").notNull().unique(), // stored as accounts/users.ts normaliseEmail writes it: ASCII letters lower-cased, nothing else folded
  name: text("name").notNull(),
  // Null: the user has no password and cannot sign in with one (single sign-on; docs/product.md §4).
  passwordHash: text("password_hash"),
  role: text("role", { enum: ["admin", "member"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  // Moves with every change to how the user may sign in or what they may do (a password set, a
  // role changed); a session counts only while it carries the current one (docs/dashboard-api.md "Sessions").
  credentialEpoch: integer("credential_epoch").notNull().default(0),
  // Made by `phrasebook user create`: signs in with its password even where password sign-in is
  // off for everyone else (docs/deploy.md "Single sign-on", "Break-glass accounts").
  breakGlass: integer("break_glass", { mode: "boolean" }).notNull().default(false),
});

export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(), // SHA-256 of the cookie value
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The user's credential epoch the session was made under; valid only while it is still the user's. */
    credentialEpoch: integer("credential_epoch").notNull().default(0),
    /** How the session began: "password" or "oidc" (signing out of the latter also ends the provider's). */
    signInMethod: text("sign_in_method").notNull().default("password"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Who a user is at an identity provider: the provider's `iss` and the `sub` it gives that person,
 * bound at their first single sign-on. Later sign-ins find the user by this pair, never by email;
 * a user holds at most one identity per provider (docs/dashboard-api.md "Single sign-on").
 */
export const userIdentities = sqliteTable(
  "user_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), uniqueIndex("user_identities_user_issuer_idx").on(t.userId, t.issuer)],
);

/**
 * Secrets this server makes for itself, by name, made once at first use (the key that seals a
 * sign-in under way into its browser's cookie, docs/dashboard-api.md "Single sign-on"). In the
 * database, so every process on the data dir and a restored backup share them.
 */
export const serverKeys = sqliteTable("server_keys", {
  name: text("name").primaryKey(),
  secret: blob("secret", { mode: "buffer" }).notNull(),
  createdAt: integer("created_at").notNull(),
});

export const projects = sqliteTable("projects", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  publicId: text("public_id").notNull().unique(),
  name: text("name").notNull(),
  baseLanguageCode: text("base_language_code").notNull(),
  cdnSlug: text("cdn_slug").notNull().unique(),
  createdAt: integer("created_at").notNull(),
  // How messages are read and checked (docs/product.md §9, docs/messages.md "Syntaxes"); the
  // list of src/messages/read-types.ts (storage imports nothing of messages, which imports its types).
  messageSyntax: text("message_syntax", { enum: ["icu", "flutter", "i18next", "text"] }).notNull().default("icu"),
  // The base ARB file's `@@` attributes other than `@@locale` and `@@last_modified` (JSON object,
  // in order), or null (docs/formats.md "ARB metadata").
  arbAttributes: text("arb_attributes"),
  // Releases ship, for every language but the base, each key's last approved value (docs/releases.md
  // "Reviewed strings only"); the base language ships as it is.
  publishApprovedOnly: integer("publish_approved_only", { mode: "boolean" }).notNull().default(false),
});

export const languages = sqliteTable(
  "languages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("languages_project_code_uq").on(t.projectId, t.code)],
);

export const translationKeys = sqliteTable(
  "translation_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    context: text("context"),
    // The `@key` object of the base language's ARB file as pushed (JSON, attributes in order), or
    // null when no base ARB named the key (docs/formats.md "ARB metadata").
    arbMetadata: text("arb_metadata"),
    // False for a string the base file marks as not to be translated (Android `translatable="false"`,
    // XLIFF `translate="no"`, a catalog's `shouldTranslate: false`, ARB `x-translatable`); set and
    // cleared by base-language pushes in those formats only, like the context (docs/formats.md
    // "Not translatable").
    translatable: integer("translatable", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("keys_project_key_uq").on(t.projectId, t.key)],
);

export const translations = sqliteTable(
  "translations",
  {
    keyId: integer("key_id").notNull().references(() => translationKeys.id, { onDelete: "cascade" }),
    languageId: integer("language_id").notNull().references(() => languages.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    status: text("status", { enum: ["translated", "approved"] }).notNull(),
    updatedAt: integer("updated_at").notNull(),
    // The message checks' findings for this value as last checked (docs/product.md §7), and their
    // counts by severity, so lists filter and progress counts without reading every value.
    problems: text("problems", { mode: "json" }).$type<MessageProblem[]>().notNull().default([]),
    errorCount: integer("error_count").notNull().default(0),
    warningCount: integer("warning_count").notNull().default(0),
    // When the checks last ran on this value; null for values stored before there were checks.
    checkedAt: integer("checked_at"),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.languageId] }),
    index("translations_language_idx").on(t.languageId),
    // Only the values with a finding (a few in a hundred): the `problems` filter and the problem
    // list read these instead of every value of the project (docs/architecture.md "Counts kept").
    index("translations_problems_idx")
      .on(t.languageId, t.keyId)
      .where(sql`error_count > 0 OR warning_count > 0`),
  ],
);

/**
 * What `GET /progress` and the key grid's counts say of each language, kept by triggers on
 * `translations` (src/storage/derived.ts) in the transaction of every write, so a request reads one
 * row per language instead of counting five million values (docs/architecture.md "Counts kept").
 */
export const languageCounts = sqliteTable("language_counts", {
  languageId: integer("language_id")
    .primaryKey()
    .references(() => languages.id, { onDelete: "cascade" }),
  /** The language's values: translated or approved. */
  valueCount: integer("value_count").notNull().default(0),
  approvedCount: integer("approved_count").notNull().default(0),
  /** Values with at least one finding of the message checks. */
  problemValueCount: integer("problem_value_count").notNull().default(0),
  /** The findings themselves, by severity (sums of the values' error_count and warning_count). */
  errorCount: integer("error_count").notNull().default(0),
  warningCount: integer("warning_count").notNull().default(0),
});

/** One finding of the message checks (docs/product.md §7). */
export interface MessageProblem {
  code: "icu_syntax" | "placeholder_unknown" | "plural_category" | "placeholder_missing" | "glossary";
  severity: "error" | "warning";
  message: string;
}

/**
 * Every change of a translation's value or status, newest last (docs/product.md §8): who made it
 * (a user or an API token, by the name it had then), through what, and the value before. Deleting
 * a key deletes its history; deleting a user or token keeps the entries.
 */
export const translationHistory = sqliteTable(
  "translation_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    keyId: integer("key_id").notNull().references(() => translationKeys.id, { onDelete: "cascade" }),
    languageId: integer("language_id").notNull().references(() => languages.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    previousValue: text("previous_value"),
    status: text("status", { enum: ["translated", "approved"] }).notNull(),
    byKind: text("by_kind", { enum: ["user", "token"] }).notNull(),
    byPublicId: text("by_public_id").notNull(),
    byName: text("by_name").notNull(),
    // `memory` and `machine`: filled by a developer's pre-translation, never approved (docs/translators.md "Pre-translation").
    via: text("via", { enum: ["edit", "import", "approve", "memory", "machine"] }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [
    // One cell's entries, newest last: a save keeps a cell's newest entries and drops the rest
    // (authoring/history.ts); a key's history reads its cells' entries and sorts them.
    index("translation_history_cell_idx").on(t.keyId, t.languageId, t.id),
    // A language's approvals, newest last per key: publishing reviewed strings only reads them in one
    // pass per language (docs/releases.md "Reviewed strings only"). Approvals are few; the index is small.
    index("translation_history_approved_idx").on(t.languageId, t.keyId, t.id).where(sql`status = 'approved'`),
  ],
);

export const PROJECT_ROLES = ["viewer", "translator", "reviewer", "developer", "publisher", "admin"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/**
 * A user's role in a project (docs/dashboard-api.md "Project roles"). `languages` limits a
 * `translator` or `reviewer` to those codes (null: every language); other roles have none. A user
 * with no row holds PHRASEBOOK_DEFAULT_PROJECT_ROLE there; a global admin needs none. When this
 * table is created, every `member` user gets `developer` on every project (storage/migrate.ts).
 */
export const projectMembers = sqliteTable(
  "project_members",
  {
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: PROJECT_ROLES }).notNull(),
    languages: text("languages", { mode: "json" }).$type<string[]>(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("project_members_user_idx").on(t.userId)],
);

/** The languages a user last chose to see in a project's editor (docs/dashboard.md). */
export const editorPreferences = sqliteTable(
  "editor_preferences",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    languages: text("languages", { mode: "json" }).$type<string[]>().notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] })],
);

export const releases = sqliteTable(
  "releases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tag: text("tag").notNull(),
    status: text("status", { enum: ["draft", "published"] }).notNull(),
    slug: text("slug").unique(), // docs/interface.md §2.7: a draft has none
    // docs/interface.md §4.2 rule 3: a release whose creator was deleted is still listed.
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
    publishedAt: integer("published_at"),
    // Set while a publish of this draft is under way (docs/publishing.md §2): a second publish is a
    // 409, decided inside a write transaction. Cleared when it ends, and at start.
    publishingSince: integer("publishing_since"),
    // Published by an admin while message checks reported errors (docs/product.md §7).
    forced: integer("forced", { mode: "boolean" }).notNull().default(false),
    // The bundle formats the release shipped, set at publish from the format registry (docs/formats.md
    // "What a release records"); the CDN serves only these and download_urls lists them. A draft is
    // made with none. The default is what every release published before the column existed shipped.
    formats: text("formats", { mode: "json" }).$type<string[]>().notNull().default(["json", "yaml", "arb"]),
    // The public id of the release this one republished (docs/releases.md "Roll back"): its files
    // are byte-identical copies. No foreign key: the source may be deleted later; the id stays.
    republishedFrom: text("republished_from"),
    // A draft's scheduled publish (docs/releases.md "Scheduled publish"): when it runs, and why it
    // could not (the refusal's message), after which it waits for a person.
    scheduledAt: integer("scheduled_at"),
    scheduleError: text("schedule_error"),
    // What the release's manifests say besides their URLs (docs/delivery.md "Manifests"): its tag
    // as published and every file's SHA-256 and size, measured while the files were written (JSON,
    // `ManifestBasis` of delivery/manifest.ts). Null for a draft, and for a release published
    // before manifests existed until its first manifest is asked for.
    manifest: text("manifest"),
    // The path record's sequence of its publish, which its pinned manifest carries, and the
    // project's signing key (its number) that signs them (docs/delivery.md "Signatures").
    manifestSequence: integer("manifest_sequence"),
    signingKey: integer("signing_key"),
  },
  (t) => [
    index("releases_project_status_created_idx").on(t.projectId, t.status, t.createdAt),
    index("releases_project_status_published_idx").on(t.projectId, t.status, t.publishedAt),
    index("releases_scheduled_idx").on(t.scheduledAt),
  ],
);

/**
 * Named channels (docs/releases.md "Channels"): each points at one published release of its
 * project and serves it under its own random slug, `{cdn_url}/p/{projectSlug}/c/{slug}/...`.
 * `release_id` has no ON DELETE action: deleting a release a channel points to is refused (409)
 * by the service before it is tried, and the key makes sure nothing else gets round that.
 */
export const channels = sqliteTable(
  "channels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    releaseId: integer("release_id").notNull().references(() => releases.id),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("channels_project_name_uq").on(t.projectId, t.name), index("channels_release_idx").on(t.releaseId)],
);

/** The languages a release shipped, frozen at publish time (docs/interface.md §2.3, §3). */
export const releaseLanguages = sqliteTable(
  "release_languages",
  {
    releaseId: integer("release_id").notNull().references(() => releases.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    isBaseLanguage: integer("is_base_language", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.code] })],
);

export const TOKEN_SCOPES = ["read", "write", "publish"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(), // SHA-256 hex; the value is shown once
    // What the token may do (docs/product.md §6): a non-empty subset of read, write, publish.
    scopes: text("scopes", { mode: "json" }).$type<TokenScope[]>().notNull().default(["read"]),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("api_tokens_project_idx").on(t.projectId)],
);

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    secret: text("secret"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_endpoints_project_idx").on(t.projectId)],
);

/**
 * Events written in the same transaction as the change that caused them (docs/product.md §5). `payload`
 * is the exact envelope JSON that every delivery of this event sends, byte for byte.
 */
export const outboxEvents = sqliteTable(
  "outbox_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull(), // no FK: an event outlives a deleted project's rows
    event: text("event").notNull(),
    payload: text("payload").notNull(),
    createdAt: integer("created_at").notNull(),
    dispatchedAt: integer("dispatched_at"), // set once deliveries were created for it
  },
  (t) => [index("outbox_pending_idx").on(t.dispatchedAt, t.id)],
);

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(), // also the X-Service-Delivery header
    endpointId: integer("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    outboxEventId: integer("outbox_event_id"),
    redeliveryOf: integer("redelivery_of"),
    event: text("event").notNull(),
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    leaseUntil: integer("lease_until"), // an attempt in flight; a crash lets the lease lapse
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("deliveries_created_idx").on(t.createdAt),
    uniqueIndex("deliveries_event_endpoint_uq").on(t.outboxEventId, t.endpointId),
  ],
);

export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id").notNull().references(() => deliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: integer("duration_ms"),
    requestHeaders: text("request_headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseBodyTruncated: integer("response_body_truncated", { mode: "boolean" }).notNull().default(false),
    failureReason: text("failure_reason"),
  },
  (t) => [uniqueIndex("delivery_attempts_number_uq").on(t.deliveryId, t.number)],
);

/**
 * Who did what to settings, people and access (docs/dashboard-api.md "Audit log"): written by the
 * action itself, in its own transaction (src/audit/). Names are kept as they were then, so an
 * entry stays readable after its actor or target is deleted; no foreign keys for the same reason.
 * Never a secret or a token's value. Kept 400 days.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actorKind: text("actor_kind", { enum: ["user", "token", "system"] }).notNull(),
    actorId: text("actor_id"), // the user's or token's public id; null for the system, or an unknown email's failed sign-in
    actorName: text("actor_name").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id"),
    targetName: text("target_name"),
    // The project the action belongs to (its row id), null for server-wide actions (sign-in, users).
    projectId: integer("project_id"),
    ip: text("ip"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_project_idx").on(t.projectId, t.id), index("audit_log_action_idx").on(t.action, t.id)],
);

/**
 * What changed at the CDN's paths, in order (docs/architecture.md "Publish targets"): one row per
 * change of what a path serves (a release's files written, `latest` moved, a channel moved, a slug
 * rotated, a release deleted), written in the transaction of the change. Every publish target
 * (the data directory, the replica's release copies, object storage) replays it from its own
 * cursor. `sequence` counts a project's actions and only grows: the changes one action writes (a
 * publish: the release's files, then `latest` moving to it) share one.
 * `change` is self-contained JSON (slugs, languages and formats as they were then), so a replay
 * needs nothing but the record and the pinned files. No foreign key: a change outlives the rows it
 * names. Kept: a project's record is small (a row per publish, move or rotation).
 */
export const pathChanges = sqliteTable(
  "path_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull(),
    sequence: integer("sequence").notNull(),
    kind: text("kind", { enum: ["release_published", "latest_moved", "channel_moved", "slug_rotated", "release_deleted", "key_rotated"] }).notNull(),
    change: text("change").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("path_changes_project_sequence_idx").on(t.projectId, t.sequence)],
);

/**
 * Each project's Ed25519 signing keys (docs/delivery.md "Signatures"), numbered from 1; the
 * highest is the current one. Kept with the data, so backups and replicas carry them. `secret_key`
 * is the 32-byte seed, `public_key` the 32-byte key, `key_id` minisign's 8-byte key number, each
 * base64; `signature` is the minisign signature of key n's public key file by key n-1 (null for 1).
 */
export const signingKeys = sqliteTable(
  "signing_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    n: integer("n").notNull(),
    keyId: text("key_id").notNull(),
    publicKey: text("public_key").notNull(),
    secretKey: text("secret_key").notNull(),
    signature: text("signature"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("signing_keys_project_n_uq").on(t.projectId, t.n)],
);

/**
 * App builds (docs/delivery.md "App builds"): the messages an app build was made with, registered
 * from its base files. `build_id` is derived from them; `messages` is the JSON object of each key
 * (as the build names it) to its placeholders, `{name: type | null}` (a type only for ARB).
 * A project keeps its most recently registered builds (BUILDS_KEPT).
 */
export const builds = sqliteTable(
  "builds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    buildId: text("build_id").notNull(),
    name: text("name"),
    messages: text("messages").notNull(),
    keyCount: integer("key_count").notNull(),
    registeredAt: integer("registered_at").notNull(),
  },
  (t) => [uniqueIndex("builds_project_build_uq").on(t.projectId, t.buildId), index("builds_project_registered_idx").on(t.projectId, t.registeredAt)],
);

/** How far each publish target has replayed `path_changes` (the last change it finished). */
export const publishTargetCursors = sqliteTable("publish_target_cursors", {
  target: text("target").primaryKey(),
  lastChangeId: integer("last_change_id").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Translation memories imported into a project from TMX files (docs/translators.md "Translation
 * memory"): one row per file, its units below. Deleting the row deletes its units.
 */
export const memoryImports = sqliteTable(
  "memory_imports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The file's source language as it wrote it (`srclang`). */
    sourceLanguage: text("source_language").notNull(),
    units: integer("units").notNull().default(0),
    byKind: text("by_kind", { enum: ["user", "token"] }).notNull(),
    byPublicId: text("by_public_id").notNull(),
    byName: text("by_name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("memory_imports_project_idx").on(t.projectId)],
);

/**
 * One translation unit of an imported memory: its source text (in the project's base language)
 * and, in `memory_targets`, its translations. The source is in the memory's search index
 * (`memory_search`, src/storage/derived.ts) under the negated id.
 */
export const memoryUnits = sqliteTable(
  "memory_units",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    importId: integer("import_id").notNull().references(() => memoryImports.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    /** The unit's `tuid` in the file (a key, for a Phrasebook export), or null. */
    tuid: text("tuid"),
    source: text("source").notNull(),
  },
  (t) => [index("memory_units_import_idx").on(t.importId)],
);

/** A unit's translation into one language, under the code the project spells it with. */
export const memoryTargets = sqliteTable(
  "memory_targets",
  {
    unitId: integer("unit_id").notNull().references(() => memoryUnits.id, { onDelete: "cascade" }),
    languageCode: text("language_code").notNull(),
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.unitId, t.languageCode] })],
);

/**
 * A project's glossary (docs/translators.md "Glossary"): a term of the base language, its
 * translations by language code, a note, and two flags. The message checks warn (`glossary`)
 * when a translation leaves a term's translation out or changes a term not to be translated.
 */
export const glossaryTerms = sqliteTable(
  "glossary_terms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    translations: text("translations", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    note: text("note").notNull().default(""),
    caseSensitive: integer("case_sensitive", { mode: "boolean" }).notNull().default(false),
    doNotTranslate: integer("do_not_translate", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("glossary_project_term_uq").on(t.projectId, t.term)],
);

/**
 * Comments on a key (docs/translators.md "Comments"), plain text, maybe about one language. Who
 * wrote one is kept by name as in the history, so a deleted user's comments stay readable;
 * `by_user_id` (null for a token or a deleted user) decides who may delete it.
 */
export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    keyId: integer("key_id").notNull().references(() => translationKeys.id, { onDelete: "cascade" }),
    languageCode: text("language_code"),
    body: text("body").notNull(),
    byKind: text("by_kind", { enum: ["user", "token"] }).notNull(),
    byPublicId: text("by_public_id").notNull(),
    byName: text("by_name").notNull(),
    createdAt: integer("created_at").notNull(),
    resolvedAt: integer("resolved_at"),
  },
  (t) => [
    index("comments_key_idx").on(t.keyId, t.id),
    // The keys with an open comment, for `?comments=open` and the `open_comments` counts.
    index("comments_open_idx").on(t.keyId).where(sql`resolved_at IS NULL`),
  ],
);

/**
 * Screenshots of an app (docs/translators.md "Screenshots"), kept in the database itself as
 * blobs, so backups (VACUUM INTO) and the replica (Litestream) carry them with everything else
 * (docs/decisions.md "Screenshots in the database"). The type is the one sniffed from the bytes.
 */
export const screenshots = sqliteTable(
  "screenshots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull().unique(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    contentType: text("content_type", { enum: ["image/png", "image/jpeg", "image/webp"] }).notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    /** SHA-256 of the image, hex: pushing the same file again changes nothing. */
    sha256: text("sha256").notNull(),
    image: blob("image", { mode: "buffer" }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("screenshots_project_name_uq").on(t.projectId, t.name)],
);

/** Which keys a screenshot shows, and where (a box in the image's pixels, or none). */
export const screenshotKeys = sqliteTable(
  "screenshot_keys",
  {
    screenshotId: integer("screenshot_id").notNull().references(() => screenshots.id, { onDelete: "cascade" }),
    keyId: integer("key_id").notNull().references(() => translationKeys.id, { onDelete: "cascade" }),
    x: integer("x"),
    y: integer("y"),
    width: integer("width"),
    height: integer("height"),
  },
  (t) => [primaryKey({ columns: [t.screenshotId, t.keyId] }), index("screenshot_keys_key_idx").on(t.keyId)],
);

/**
 * The mirror's queue (docs/deploy.md "Object storage and CDN purge"): each object to write or
 * remove in the bucket, from the path record's changes (`change_id`, 0 for a full pass), durable so
 * a publish never waits for the store and a restart loses nothing. A row is copied once no earlier
 * row of its path is left (a newer row of the path makes an older waiting one unnecessary) and, for
 * a `latest`, channel or manifest object (`level` above 0), once no pinned object of its release
 * (`release`) nor key file of its project (`release` empty) waits below it. Rows stay `done` until
 * every row of their change is, so its purge can follow.
 */
export const mirrorQueue = sqliteTable(
  "mirror_queue",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    changeId: integer("change_id").notNull(),
    projectId: integer("project_id").notNull(),
    path: text("path").notNull(),
    op: text("op", { enum: ["put", "delete"] }).notNull(),
    /** The put of `pathOps` as JSON (what to render), null for a delete. */
    put: text("put"),
    level: integer("level").notNull(),
    release: text("release").notNull(),
    /** Look at the object first and write it only when it differs (a full pass over a bucket that may hold it). */
    checkFirst: integer("check_first", { mode: "boolean" }).notNull().default(false),
    done: integer("done", { mode: "boolean" }).notNull().default(false),
    /** Done, and what its path serves changed: purged with its change. */
    purge: integer("purge", { mode: "boolean" }).notNull().default(false),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("mirror_queue_path_idx").on(t.path, t.id), index("mirror_queue_waiting_idx").on(t.projectId, t.done, t.level), index("mirror_queue_change_idx").on(t.changeId)],
);

/** The mirror's one row: which bucket and prefix the queue was filled for, and its last copy. */
export const mirrorState = sqliteTable("mirror_state", {
  id: integer("id").primaryKey(),
  location: text("location").notNull(),
  lastCopiedAt: integer("last_copied_at"),
});

/** Purge calls to make (docs/deploy.md "Object storage and CDN purge"), retried until they succeed. */
export const purgeQueue = sqliteTable("purge_queue", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The call as JSON: the URLs, or the surrogate key, it names. */
  call: text("call").notNull(),
  /** `X-Service-Delivery` of the http kind: the same for every attempt. */
  deliveryId: text("delivery_id").notNull(),
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: integer("next_attempt_at").notNull(),
  lastError: text("last_error"),
  createdAt: integer("created_at").notNull(),
});

/**
 * What each `latest`, channel or manifest path served when it was last purged (SHA-256), so a
 * change purges only the URLs whose content changed.
 */
export const purgedContent = sqliteTable("purged_content", {
  path: text("path").primaryKey(),
  sha256: text("sha256").notNull(),
});

/** Row types, shared by the capabilities that read these tables (none imports another's). */
export type UserRow = typeof users.$inferSelect;
export type UserIdentityRow = typeof userIdentities.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type LanguageRow = typeof languages.$inferSelect;
export type KeyRow = typeof translationKeys.$inferSelect;
export type ReleaseRow = typeof releases.$inferSelect;
export type ChannelRow = typeof channels.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;
export type TranslationRow = typeof translations.$inferSelect;
export type HistoryRow = typeof translationHistory.$inferSelect;
export type MemberRow = typeof projectMembers.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
export type PathChangeRow = typeof pathChanges.$inferSelect;
export type GlossaryTermRow = typeof glossaryTerms.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type ScreenshotRow = typeof screenshots.$inferSelect;
export type MemoryImportRow = typeof memoryImports.$inferSelect;
export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type BuildRow = typeof builds.$inferSelect;
