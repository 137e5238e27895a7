import type { Queryable } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { newSecretToken } from '../shared/ids.ts';
import type { WebhookEventType } from './event-types.ts';

export interface OutboxEvent {
  readonly clientId: string;
  readonly type: WebhookEventType;
  /** The resource as the API renders it (its view function's output). */
  readonly data: unknown;
  /** The resource's own callbackUrl, which overrides the client's webhook URL. */
  readonly callbackUrl?: string | null;
}

/**
 * Writes events into the outbox inside the caller's transaction, in one statement: they commit
 * with the change they report, or not at all. Delivery happens later, in the worker, never here.
 */
export async function enqueueEvents(
  tx: Queryable,
  clock: Clock,
  events: readonly OutboxEvent[],
): Promise<string[]> {
  const ids = events.map(() => `msg_${newSecretToken(18)}`);
  await tx.query(
    `INSERT INTO webhook_events (id, client_id, type, payload, callback_url, status,
        next_attempt_at, created_at, updated_at)
     SELECT e.id, e.client_id, e.type, e.payload::json, e.callback_url, 'pending', $6, $6, $6
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
         AS e(id, client_id, type, payload, callback_url)`,
    [
      ids,
      events.map((event) => event.clientId),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify({ type: event.type, data: event.data })),
      events.map((event) => event.callbackUrl ?? null),
      clock.now(),
    ],
  );
  return ids;
}

/** One event into the outbox, in the caller's transaction. */
export async function enqueueEvent(
  tx: Queryable,
  clock: Clock,
  event: OutboxEvent,
): Promise<string> {
  const [id] = await enqueueEvents(tx, clock, [event]);
  return id as string;
}
