import { and, asc, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { isEventType } from "../changes/events.ts";
import { iso } from "../common/clock.ts";
import { badRequest, conflict, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { parsePositiveInt } from "../common/paging.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { deliveries, deliveryAttempts, webhookEndpoints, type DeliveryRow, type EndpointRow, type ProjectRow } from "../storage/schema.ts";
import { findEndpoint } from "./endpoints.ts";
import { DELIVERY_LIST_DEFAULT, DELIVERY_LIST_MAX, type DeliveryListQuery } from "./model.ts";
import { sampleEnvelope } from "./samples.ts";

export interface DeliveryView {
  id: string;
  endpoint_id: string;
  event: string;
  status: "pending" | "succeeded" | "failed";
  attempt_count: number;
  created_at: string;
  next_attempt_at: string | null;
  redelivery_of: string | null;
}

export interface AttemptView {
  number: number;
  started_at: string;
  duration_ms: number | null;
  request_headers: Record<string, string>;
  response_status: number | null;
  response_body: string | null;
  response_body_truncated: boolean;
  failure_reason: string | null;
}

const original = alias(deliveries, "original");

function view(d: DeliveryRow, endpointPublicId: string, originalPublicId: string | null): DeliveryView {
  return {
    id: d.publicId,
    endpoint_id: endpointPublicId,
    event: d.event,
    status: d.status,
    attempt_count: d.attemptCount,
    created_at: iso(d.createdAt),
    next_attempt_at: iso(d.nextAttemptAt),
    redelivery_of: originalPublicId,
  };
}

/** An endpoint's newest `limit` deliveries, newest first (docs/product.md §4). */
export function listDeliveries(db: Db, project: ProjectRow, endpointPublicId: string, query: DeliveryListQuery = {}): DeliveryView[] {
  const limit = parsePositiveInt(query.limit, "limit", DELIVERY_LIST_DEFAULT);
  const endpoint = findEndpoint(db, project, endpointPublicId);
  return db
    .select({ d: deliveries, originalId: original.publicId })
    .from(deliveries)
    .leftJoin(original, eq(original.id, deliveries.redeliveryOf))
    .where(eq(deliveries.endpointId, endpoint.id))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(Math.min(limit, DELIVERY_LIST_MAX))
    .all()
    .map((r) => view(r.d, endpoint.publicId, r.originalId));
}

function findDelivery(db: Db, project: ProjectRow, publicId: string): { d: DeliveryRow; endpoint: EndpointRow } {
  const row = db
    .select({ d: deliveries, endpoint: webhookEndpoints })
    .from(deliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, deliveries.endpointId))
    .where(and(eq(deliveries.publicId, publicId), eq(deliveries.projectId, project.id)))
    .get();
  if (!row) throw notFound("delivery not found");
  return row;
}

/**
 * The exact payload and every attempt with its headers, response and failure reason
 * (docs/interface.md §6.5).
 */
export function deliveryDetail(db: Db, project: ProjectRow, publicId: string): DeliveryView & { payload: string; attempts: AttemptView[] } {
  const { d, endpoint } = findDelivery(db, project, publicId);
  const originalId = d.redeliveryOf === null ? null : (db.select({ id: deliveries.publicId }).from(deliveries).where(eq(deliveries.id, d.redeliveryOf)).get()?.id ?? null);
  const attempts = db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, d.id))
    .orderBy(asc(deliveryAttempts.number))
    .all()
    .map((a) => ({
      number: a.number,
      started_at: iso(a.startedAt),
      duration_ms: a.durationMs,
      request_headers: a.requestHeaders,
      response_status: a.responseStatus,
      response_body: a.responseBody,
      response_body_truncated: a.responseBodyTruncated,
      failure_reason: a.failureReason,
    }));
  return { ...view(d, endpoint.publicId, originalId), payload: d.payload, attempts };
}

function assertEnabled(endpoint: EndpointRow): void {
  if (!endpoint.enabled) throw conflict("the webhook endpoint is disabled; enable it first");
}

function insertDelivery({ db, clock, changes }: ServiceDeps, endpoint: EndpointRow, event: string, payload: string, redeliveryOf: number | null): string {
  const now = clock.now();
  const publicId = newId("dlv");
  db.insert(deliveries)
    .values({ publicId, endpointId: endpoint.id, projectId: endpoint.projectId, event, payload, status: "pending", nextAttemptAt: now, createdAt: now, redeliveryOf })
    .run();
  changes.wake();
  return publicId;
}

/** A redelivery is a new delivery (new id) of the original payload bytes (docs/interface.md §6.3, §6.5). */
export function redeliver(deps: ServiceDeps, project: ProjectRow, publicId: string): { delivery_id: string } {
  const { d, endpoint } = findDelivery(deps.db, project, publicId);
  assertEnabled(endpoint);
  return { delivery_id: insertDelivery(deps, endpoint, d.event, d.payload, d.id) };
}

/**
 * A sample of one subscribed event, through the same path: envelope, signing, log
 * (docs/interface.md §6.5).
 */
export function sendTestEvent(deps: ServiceDeps, project: ProjectRow, endpointPublicId: string, event: string | undefined): { delivery_id: string } {
  const endpoint = findEndpoint(deps.db, project, endpointPublicId);
  const chosen = event ?? endpoint.events[0];
  if (!chosen || !isEventType(chosen)) throw badRequest(`invalid field "event": unknown event ${JSON.stringify(chosen ?? "")}`);
  if (!endpoint.events.includes(chosen)) throw badRequest(`invalid field "event": this endpoint does not subscribe to ${chosen}`);
  assertEnabled(endpoint);
  const payload = JSON.stringify(sampleEnvelope(chosen, project, deps.clock.now()));
  return { delivery_id: insertDelivery(deps, endpoint, chosen, payload, null) };
}
