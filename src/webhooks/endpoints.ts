import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, asc, eq } from "drizzle-orm";
import { EVENT_TYPES, isEventType } from "../changes/events.ts";
import { iso } from "../common/clock.ts";
import { invalidField, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { webhookEndpoints, type EndpointRow, type ProjectRow } from "../storage/schema.ts";
import type { EndpointPatch, NewEndpoint } from "./model.ts";

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  has_secret: boolean;
  enabled: boolean;
  consecutive_failures: number;
  failing: boolean;
  created_at: string;
}

/**
 * A webhook URL as a member sees it (docs/dashboard-api.md "Access"): receivers often take a token
 * in the query string, and only admins, who manage endpoints, need it. `https://h/in?token=x`
 * becomes `https://h/in?***`.
 */
export function maskQuery(url: string): string {
  const at = url.indexOf("?");
  return at < 0 || at === url.length - 1 ? url : `${url.slice(0, at)}?***`;
}

export interface ViewOptions {
  /** For a caller who is not an admin: the URL's query string masked. */
  maskQuery?: boolean;
}

/** The secret never leaves the server after saving (docs/product.md §4): only whether there is one. */
export function endpointView(e: EndpointRow, options: ViewOptions = {}): EndpointView {
  return {
    id: e.publicId,
    url: options.maskQuery ? maskQuery(e.url) : e.url,
    events: e.events,
    has_secret: Boolean(e.secret),
    enabled: e.enabled,
    consecutive_failures: e.consecutiveFailures,
    failing: e.consecutiveFailures > 0,
    created_at: iso(e.createdAt),
  };
}

/**
 * Only https (docs/interface.md §6.1 rule 1). Saving checks the scheme and the URL's form only; whether the
 * address is public is decided when a delivery connects (docs/product.md §5). The URL is stored as the
 * WHATWG parser writes it, which is also the form the sender connects to. Its length is the route
 * schema's to bound (model.ts URL_MAX_LENGTH).
 */
export function cleanUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidField("url", "not an absolute URL");
  }
  if (url.protocol !== "https:") throw invalidField("url", "must use https");
  if (!url.hostname) throw invalidField("url", "has no host");
  if (url.username || url.password) throw invalidField("url", "must not carry credentials (use a secret to authenticate deliveries)");
  url.hash = "";
  return url.href;
}

export function cleanEvents(raw: string[]): string[] {
  const unknown = raw.filter((e) => !isEventType(e));
  if (unknown.length > 0) {
    throw invalidField("events", `unknown event ${JSON.stringify(unknown[0])} (known: ${EVENT_TYPES.join(", ")})`);
  }
  if (raw.length === 0) throw invalidField("events", "choose at least one event");
  // Keep the order of docs/interface.md §6.2, whatever order they were sent in.
  return EVENT_TYPES.filter((e) => raw.includes(e));
}

/** `null` or `""` is no secret. */
function cleanSecret(raw: string | null | undefined): string | null {
  return raw === undefined || raw === null || raw === "" ? null : raw;
}

export function findEndpoint(db: Db, project: ProjectRow, publicId: string): EndpointRow {
  const row = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, project.id), eq(webhookEndpoints.publicId, publicId)))
    .get();
  if (!row) throw notFound("webhook endpoint not found");
  return row;
}

export function listEndpoints(db: Db, project: ProjectRow, options: ViewOptions = {}): EndpointView[] {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.projectId, project.id))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .all()
    .map((e) => endpointView(e, options));
}

export function createEndpoint({ db, clock }: ServiceDeps, project: ProjectRow, input: NewEndpoint, by: AuditBy = SYSTEM): EndpointView {
  const insert = () => db
    .insert(webhookEndpoints)
    .values({
      publicId: newId("whk"),
      projectId: project.id,
      url: cleanUrl(input.url),
      events: cleanEvents(input.events),
      secret: cleanSecret(input.secret),
      enabled: input.enabled ?? true,
      createdAt: clock.now(),
    })
    .returning()
    .get();
  const row = db.transaction(() => {
    const made = insert();
    recordAudit(db, clock, by, { action: "webhook_created", target: auditEndpoint(made), projectId: project.id, details: { url: maskQuery(made.url), events: made.events, has_secret: made.secret !== null, enabled: made.enabled } });
    return made;
  });
  return endpointView(row);
}

/** An endpoint as the audit log names it: its URL with the query masked (receivers put tokens there). */
function auditEndpoint(e: EndpointRow) {
  return { kind: "webhook" as const, id: e.publicId, name: maskQuery(e.url) };
}

/** `secret: null` or `""` removes the secret; leaving it out keeps the current one. */
export function updateEndpoint({ db, clock, changes }: ServiceDeps, project: ProjectRow, publicId: string, patch: EndpointPatch, by: AuditBy = SYSTEM): EndpointView {
  const row = findEndpoint(db, project, publicId);
  const values: Partial<EndpointRow> = {};
  if (patch.url !== undefined) values.url = cleanUrl(patch.url);
  if (patch.events !== undefined) values.events = cleanEvents(patch.events);
  if (patch.secret !== undefined) values.secret = cleanSecret(patch.secret);
  if (patch.enabled !== undefined) values.enabled = patch.enabled;
  if (Object.keys(values).length === 0) return endpointView(row);
  const updated = db.transaction(() => {
    const changed = db.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, row.id)).returning().get()!;
    // What changed; a secret only as the fact that it did (docs/dashboard-api.md "Audit log").
    const details: Record<string, unknown> = {};
    if (values.url !== undefined) details.url = { from: maskQuery(row.url), to: maskQuery(changed.url) };
    if (values.events !== undefined) details.events = { from: row.events, to: changed.events };
    if (values.secret !== undefined) details.secret_changed = values.secret === null ? "removed" : "set";
    if (values.enabled !== undefined) details.enabled = changed.enabled;
    recordAudit(db, clock, by, { action: "webhook_changed", target: auditEndpoint(changed), projectId: project.id, details });
    return changed;
  });
  // Enabling again resumes the deliveries that waited while it was off.
  if (patch.enabled) changes.wake();
  return endpointView(updated);
}

/** Deleting an endpoint deletes its delivery log too (foreign key cascade). */
export function deleteEndpoint({ db, clock }: ServiceDeps, project: ProjectRow, publicId: string, by: AuditBy = SYSTEM): void {
  db.transaction(() => {
    const row = findEndpoint(db, project, publicId);
    db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id)).run();
    recordAudit(db, clock, by, { action: "webhook_deleted", target: auditEndpoint(row), projectId: project.id, details: { events: row.events } });
  });
}
