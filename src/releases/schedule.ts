import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, asc, eq, isNotNull, isNull, lte, min } from "drizzle-orm";
import { conflict, HttpError, invalidField } from "../common/errors.ts";
import { log } from "../common/log.ts";
import type { AppDeps, ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { projects, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import type { ScheduleInput } from "./model.ts";
import { publishRelease } from "./publish.ts";
import { findRelease } from "./releases.ts";

/**
 * Scheduled publishing (docs/releases.md "Scheduled publish"): a draft carries `scheduled_at`; the
 * job below publishes it then, with the message checks of any publish. A publish they block (or
 * that fails for any other reason) leaves the draft with `schedule_error`, the refusal's message,
 * and is logged; it waits for a person, who fixes the messages and schedules again.
 */

/** An ISO 8601 date and time with a zone (`Z` or an offset), as `Date.parse` reads it. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * The time `text` names (epoch ms), or NaN. `Date.parse` rolls a day the month lacks over into the
 * next month (`2027-02-30` is 2 March), so each field is checked against the calendar first: a
 * schedule must publish on the day its author wrote, or be refused.
 */
function parseScheduleTime(text: string): number {
  const m = ISO_TIME.exec(text);
  if (!m) return NaN;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[7] === undefined ? 0 : Number(m[7]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return NaN;
  if (m[10] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return NaN;
  return Date.parse(text);
}

export function scheduleRelease({ db, clock, changes }: ServiceDeps, project: ProjectRow, releasePublicId: string, input: ScheduleInput, by: AuditBy = SYSTEM): ReleaseRow {
  if (!ISO_TIME.test(input.at)) throw invalidField("at", "must be an ISO 8601 time with a zone, e.g. 2026-05-01T09:00:00Z");
  const at = parseScheduleTime(input.at);
  if (Number.isNaN(at)) throw invalidField("at", `names no such day or time: ${input.at}`);
  if (at <= clock.now()) throw invalidField("at", "must be in the future");
  const release = findRelease(db, project, releasePublicId);
  if (release.status !== "draft") throw conflict("only a draft can be scheduled; this release is published");
  const row = db.transaction((tx) => {
    const updated = tx.update(releases).set({ scheduledAt: at, scheduleError: null }).where(eq(releases.id, release.id)).returning().get()!;
    recordAudit(db, clock, by, { action: "release_scheduled", target: { kind: "release", id: release.publicId, name: release.name }, projectId: project.id, details: { at: new Date(at).toISOString() } });
    return updated;
  });
  changes.notify(project.id); // the job arms for the new time
  return row;
}

export function cancelSchedule({ db, clock, changes }: ServiceDeps, project: ProjectRow, releasePublicId: string, by: AuditBy = SYSTEM): void {
  const release = findRelease(db, project, releasePublicId);
  if (release.status !== "draft") throw conflict("only a draft has a schedule; this release is published");
  db.transaction((tx) => {
    tx.update(releases).set({ scheduledAt: null, scheduleError: null }).where(eq(releases.id, release.id)).run();
    // A cancelled schedule is a schedule change too: `at` null (docs/dashboard-api.md "Audit log").
    recordAudit(db, clock, by, { action: "release_scheduled", target: { kind: "release", id: release.publicId, name: release.name }, projectId: project.id, details: { at: null } });
  });
  changes.notify(project.id);
}

/**
 * Drafts waiting for their time: scheduled, not yet failed, and not being published by a request
 * at this moment (that one publishes it; the job would only be refused).
 */
const waiting = and(eq(releases.status, "draft"), isNotNull(releases.scheduledAt), isNull(releases.scheduleError), isNull(releases.publishingSince));

/** True when the release was published, or is being published, by someone other than the job. */
function overtakenIn(db: Db, releaseId: number): boolean {
  const row = db.select({ status: releases.status, publishingSince: releases.publishingSince }).from(releases).where(eq(releases.id, releaseId)).get();
  return row !== undefined && (row.status === "published" || row.publishingSince !== null);
}

function nextDue(db: Db): number | null {
  return db.select({ at: min(releases.scheduledAt) }).from(releases).where(waiting).get()?.at ?? null;
}

function dueNow(db: Db, now: number): ReleaseRow[] {
  return db.select().from(releases).where(and(waiting, lte(releases.scheduledAt, now))).orderBy(asc(releases.scheduledAt), asc(releases.id)).all();
}

export interface ScheduledPublishing {
  /** The time the job is armed for (epoch ms), or null. */
  armedAt(): number | null;
  /** Publishes what is due now; resolves when done (tests, and the start). */
  runDue(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The job: armed on croner for the earliest waiting draft (one timer, whatever the number of
 * schedules), re-armed after every change a project announces (a schedule set or cancelled, a
 * draft published or deleted). At start, once croner is loaded (a turn after start, as the
 * retention job does, docs/architecture.md "Start-up"), whatever came due while the server was
 * down runs at once. Publishes run one at a time; stop waits for the one under way.
 */
export function startScheduledPublishing(deps: ServiceDeps & Pick<AppDeps, "targets">, dataDir: string): ScheduledPublishing {
  const { db, clock } = deps;
  let Cron: typeof import("croner").Cron | undefined;
  let job: { stop(): void } | undefined;
  let armed: number | null = null;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const overtaken = (releaseId: number) => overtakenIn(db, releaseId);

  async function publishOne(row: ReleaseRow): Promise<void> {
    const project = db.select().from(projects).where(eq(projects.id, row.projectId)).get();
    if (!project) return;
    try {
      await publishRelease(deps, dataDir, project, row.publicId);
      log.info("scheduled release published", { release_id: row.publicId, project_id: project.publicId });
    } catch (err) {
      // A person published the draft (or began to) between the job's look and its claim: the
      // schedule did not fail, it was overtaken. The draft is no longer waiting, or, if that
      // publish fails, waits again for the job (docs/releases.md "Scheduled publish").
      if (err instanceof HttpError && err.status === 409 && overtaken(row.id)) {
        log.info("scheduled release was published by another request", { release_id: row.publicId, project_id: project.publicId });
        return;
      }
      const message = err instanceof HttpError ? err.message : String(err);
      db.update(releases).set({ scheduleError: message }).where(and(eq(releases.id, row.id), eq(releases.status, "draft"))).run();
      deps.changes.notify(project.id);
      log.warn("scheduled publish did not happen", { release_id: row.publicId, project_id: project.publicId, error: message });
    }
  }

  function runDue(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (const row of dueNow(db, clock.now())) {
          if (stopped) return;
          await publishOne(row);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
      arm();
    });
    return running;
  }

  function arm(): void {
    if (stopped || !Cron) return;
    const next = nextDue(db);
    if (next === armed) return;
    job?.stop();
    job = undefined;
    armed = next;
    if (next === null) return;
    if (next <= clock.now()) {
      setImmediate(() => void runDue());
      return;
    }
    job = new Cron(new Date(next), { protect: true, unref: true }, () => {
      armed = null;
      void runDue();
    });
    // Operators (and the restart test) see that a schedule set before a restart is waiting.
    log.info("scheduled publish armed", { at: new Date(next).toISOString() });
  }

  deps.changes.subscribe(() => arm());
  import("croner")
    .then((croner) => {
      if (stopped) return;
      Cron = croner.Cron;
      void runDue(); // overdue at start: now (docs/releases.md "Scheduled publish")
    })
    .catch((err) => log.error("scheduled publishing could not start", { error: String(err) }));

  return {
    armedAt: () => armed,
    runDue,
    async stop() {
      stopped = true;
      job?.stop();
      await running;
    },
  };
}
