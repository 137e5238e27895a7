import { claimDue, type DueRows } from '../db/claim-due.ts';
import type { Queryable } from '../db/db.ts';
import type { DueClaim } from '../shared/poll-loop.ts';
import type { WebhookEventStatus } from './event-types.ts';

export interface WebhookEvent {
  readonly id: string;
  readonly clientId: string;
  readonly type: string;
  readonly payload: unknown;
  readonly callbackUrl: string | null;
  readonly status: WebhookEventStatus;
  readonly attempts: number;
  /** Attempts made before the last replay. */
  readonly replayBase: number;
  readonly nextAttemptAt: Date;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly deliveredAt: Date | null;
}

export interface WebhookAttempt {
  readonly attempt: number;
  readonly attemptedAt: Date;
  readonly url: string | null;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

interface EventRow {
  id: string;
  client_id: string;
  type: string;
  payload: unknown;
  callback_url: string | null;
  status: WebhookEventStatus;
  attempts: number;
  replay_base: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

const EVENT_COLUMNS = `id, client_id, type, payload, callback_url, status, attempts, replay_base,
  next_attempt_at, last_error, created_at, updated_at, delivered_at`;

function toEvent(row: EventRow): WebhookEvent {
  return {
    id: row.id,
    clientId: row.client_id,
    type: row.type,
    payload: row.payload,
    callbackUrl: row.callback_url,
    status: row.status,
    attempts: row.attempts,
    replayBase: row.replay_base,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
  };
}

/**
 * Pending events wait for an attempt. The claim is held in locked_until, so next_attempt_at
 * stays when the event was due; each claim is an attempt, counted.
 */
const DUE_EVENTS: DueRows = {
  table: 'webhook_events',
  dueColumn: 'next_attempt_at',
  waiting: `status = 'pending'`,
  lockColumn: 'locked_until',
  countIn: 'attempts',
  // The payload as the JSON text stored (what JSON.stringify made at enqueue): the body is sent
  // as it is, not parsed into objects and stringified again for every attempt.
  returning: `id, client_id, type, payload::text AS payload, callback_url, status, attempts,
    replay_base, next_attempt_at, last_error, created_at, updated_at, delivered_at`,
};

/** An event claimed for an attempt, with its payload as the exact body to sign and send. */
export type ClaimedEvent = Omit<WebhookEvent, 'payload'> & { readonly body: string };

/**
 * Claims due events for one attempt each: the attempt counter goes up and the row is locked
 * for `claimSeconds`.
 */
export async function claimDueEvents(db: Queryable, claim: DueClaim): Promise<ClaimedEvent[]> {
  const rows = await claimDue<EventRow>(db, DUE_EVENTS, claim);
  return rows.map((row) => {
    const { payload, ...event } = toEvent(row);
    return { ...event, body: payload as string };
  });
}

export interface AttemptOutcome {
  readonly eventId: string;
  /** The attempt number the worker claimed: a fence against a worker whose lock expired. */
  readonly attempt: number;
  readonly status: WebhookEventStatus;
  readonly nextAttemptAt?: Date | undefined;
  readonly record: Omit<WebhookAttempt, 'attempt'>;
}

/**
 * Records a round's attempts and settles their events in one statement (one round trip and one
 * commit for the whole round, where one per attempt made the worker's commits outnumber the
 * postings that raised the events; docs/benchmarks.md). An event another worker has claimed
 * since is left alone. Answers the ids of the events recorded.
 */
export async function recordAttempts(
  db: Queryable,
  outcomes: readonly AttemptOutcome[],
): Promise<Set<string>> {
  if (outcomes.length === 0) {
    return new Set();
  }
  const rows = await db.query<{ event_id: string }>(
    `WITH outcome AS (
       SELECT * FROM json_to_recordset($1::json) AS o(event_id text, attempt int, status text,
           next_attempt_at timestamptz, error text, attempted_at timestamptz, url text,
           status_code int, latency_ms int, response_excerpt text)),
     settled AS (
       UPDATE webhook_events e SET status = o.status,
           next_attempt_at = coalesce(o.next_attempt_at, e.next_attempt_at),
           locked_until = NULL, updated_at = o.attempted_at,
           -- Why the last attempt failed: the transport error, else the receiver's status.
           last_error = CASE WHEN o.status = 'delivered' THEN NULL
                             ELSE coalesce(o.error, 'HTTP ' || o.status_code) END,
           delivered_at = CASE WHEN o.status = 'delivered' THEN o.attempted_at
                               ELSE e.delivered_at END
         FROM outcome o
        WHERE e.id = o.event_id AND e.attempts = o.attempt AND e.status = 'pending'
        RETURNING e.id)
     INSERT INTO webhook_attempts (event_id, attempt, attempted_at, url, status_code, latency_ms,
         error, response_excerpt)
     SELECT o.event_id, o.attempt, o.attempted_at, o.url, o.status_code, o.latency_ms, o.error,
            o.response_excerpt
       FROM outcome o JOIN settled s ON s.id = o.event_id
     RETURNING event_id`,
    [JSON.stringify(outcomes.map(outcomeRow))],
  );
  return new Set(rows.map((row) => row.event_id));
}

function outcomeRow({ eventId, attempt, status, nextAttemptAt, record }: AttemptOutcome) {
  return {
    event_id: eventId,
    attempt,
    status,
    next_attempt_at: nextAttemptAt ?? null,
    error: record.error,
    attempted_at: record.attemptedAt,
    url: record.url,
    status_code: record.statusCode,
    latency_ms: record.latencyMs,
    response_excerpt: record.responseExcerpt,
  };
}

export interface EventFilter {
  readonly clientId: string;
  readonly status?: WebhookEventStatus;
  readonly type?: string;
  readonly offset: number;
  readonly limit: number;
}

export async function listEvents(
  db: Queryable,
  filter: EventFilter,
): Promise<{ events: WebhookEvent[]; total: number }> {
  const where = `client_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR type = $3)`;
  const params = [filter.clientId, filter.status ?? null, filter.type ?? null];
  const [rows, counts] = await Promise.all([
    db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE ${where}
        ORDER BY created_at DESC, id DESC OFFSET $4 LIMIT $5`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM webhook_events WHERE ${where}`,
      params,
    ),
  ]);
  return { events: rows.map(toEvent), total: Number(counts[0]?.total ?? 0n) };
}

/**
 * A client's events about one resource (the `_id` of the object in their payload: a transfer,
 * a purchase...) written between two times, oldest first: a range of the client's index
 * (client_id, created_at), then those events' payloads.
 */
export async function listClientEventsAbout(
  db: Queryable,
  about: { clientId: string; resourceId: string; from: Date; to: Date },
): Promise<WebhookEvent[]> {
  const rows = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM webhook_events
      WHERE client_id = $1 AND created_at >= $3 AND created_at <= $4
        AND payload->'data'->>'_id' = $2
      ORDER BY created_at, id`,
    [about.clientId, about.resourceId, about.from, about.to],
  );
  return rows.map(toEvent);
}

export async function findClientEvent(
  db: Queryable,
  clientId: string,
  eventId: string,
): Promise<WebhookEvent | undefined> {
  const rows = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE id = $1 AND client_id = $2`,
    [eventId, clientId],
  );
  return rows[0] === undefined ? undefined : toEvent(rows[0]);
}

export async function listAttempts(db: Queryable, eventIds: readonly string[]) {
  const rows = await db.query<{
    event_id: string;
    attempt: number;
    attempted_at: Date;
    url: string | null;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_excerpt: string | null;
  }>(
    `SELECT event_id, attempt, attempted_at, url, status_code, latency_ms, error, response_excerpt
       FROM webhook_attempts WHERE event_id = ANY($1) ORDER BY event_id, attempt`,
    [eventIds],
  );
  const byEvent = new Map<string, WebhookAttempt[]>();
  for (const row of rows) {
    const attempts = byEvent.get(row.event_id) ?? [];
    attempts.push({
      attempt: row.attempt,
      attemptedAt: row.attempted_at,
      url: row.url,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
      responseExcerpt: row.response_excerpt,
    });
    byEvent.set(row.event_id, attempts);
  }
  return byEvent;
}

/**
 * Puts events back in the queue for one more round of attempts, with the same webhook-id (the
 * receiver's idempotency key). Delivered events are replayed only when asked by id.
 */
export async function requeueEvents(
  db: Queryable,
  requeue: { clientId: string; now: Date; eventId?: string; failedSince?: Date },
): Promise<number> {
  const rows = await db.query(
    `UPDATE webhook_events SET status = 'pending', next_attempt_at = $2, locked_until = NULL,
        replay_base = attempts, updated_at = $2
      WHERE client_id = $1
        AND ($3::text IS NULL OR id = $3)
        -- One event is sent now whether it failed for good or waits for its next retry, unless
        -- a worker is sending it at this moment; a bulk replay takes only what is not pending.
        AND (status <> 'pending'
             OR ($3::text IS NOT NULL AND (locked_until IS NULL OR locked_until <= $2)))
        AND ($4::timestamptz IS NULL OR (status = 'failed' AND created_at >= $4))
      RETURNING id`,
    [requeue.clientId, requeue.now, requeue.eventId ?? null, requeue.failedSince ?? null],
  );
  return rows.length;
}

/**
 * Retention: deletes up to `limit` events delivered before `before`, with their attempts (failed
 * and pending ones stay, for replay); how many events.
 */
export async function purgeDeliveredEvents(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH doomed AS (
       SELECT id FROM webhook_events WHERE status = 'delivered' AND updated_at < $1
        ORDER BY updated_at LIMIT $2),
     attempts AS (DELETE FROM webhook_attempts WHERE event_id IN (SELECT id FROM doomed)),
     gone AS (DELETE FROM webhook_events WHERE id IN (SELECT id FROM doomed) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}

/** The outbox as /metrics shows it. */
export interface OutboxStats {
  /** Events still waiting to be delivered (pending: due, in flight, or waiting for a retry). */
  readonly waiting: number;
  /** When the oldest of them was written; null when none waits. */
  readonly oldestWaitingSince: Date | null;
  /** When the longest-overdue pending event fell due; null when none is due. */
  readonly oldestDueSince: Date | null;
  /** Events that failed for good (the schedule ran out, or refused) and wait for a replay. */
  readonly failed: number;
}

/**
 * One statement, every part read from a partial index: the pending events
 * (webhook_events_due_idx, webhook_events_pending_age), the failed ones
 * (webhook_events_failed_age). The counts walk only those indexes.
 */
export async function outboxStats(db: Queryable, now: Date): Promise<OutboxStats> {
  const rows = await db.query<{
    waiting: number;
    oldest_waiting: Date | null;
    oldest_due: Date | null;
    failed: number;
  }>(
    `SELECT (SELECT count(*)::int FROM webhook_events WHERE status = 'pending') AS waiting,
            (SELECT min(created_at) FROM webhook_events WHERE status = 'pending') AS oldest_waiting,
            (SELECT min(next_attempt_at) FROM webhook_events
              WHERE status = 'pending' AND next_attempt_at <= $1) AS oldest_due,
            (SELECT count(*)::int FROM webhook_events WHERE status = 'failed') AS failed`,
    [now],
  );
  const row = rows[0];
  return {
    waiting: row?.waiting ?? 0,
    oldestWaitingSince: row?.oldest_waiting ?? null,
    oldestDueSince: row?.oldest_due ?? null,
    failed: row?.failed ?? 0,
  };
}
