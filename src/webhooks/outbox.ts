import { Type } from 'typebox';
import type { Queryable } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { newOpaqueId } from '../shared/ids.ts';
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
 * Events as the outbox's SQL function takes them (webhook_enqueue): each with its id, and its
 * payload as JSON text so the stored json keeps the view's field order. SQL that writes a change
 * and its events in one call passes these on.
 */
export function outboxEventsJson(clock: Clock, events: readonly OutboxEvent[]) {
  return events.map((event) => ({
    id: `msg_${newOpaqueId(clock, 18)}`,
    clientId: event.clientId,
    type: event.type,
    payload: JSON.stringify({ type: event.type, data: event.data }),
    callbackUrl: event.callbackUrl ?? null,
  }));
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
  const encoded = outboxEventsJson(clock, events);
  await tx.query('SELECT webhook_enqueue($1::jsonb, $2)', [JSON.stringify(encoded), clock.now()]);
  return encoded.map((event) => event.id);
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

/** An event as webhook_enqueue takes it inside a batch call (outboxEventsJson). */
export const OutboxEventItemSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  type: Type.String(),
  payload: Type.String(),
  callbackUrl: Type.Union([Type.String(), Type.Null()]),
});
