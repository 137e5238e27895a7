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
 * Writes an event into the outbox inside the caller's transaction: it commits with the change
 * it reports, or not at all. Delivery happens later, in the worker, never here.
 */
export async function enqueueEvent(
  tx: Queryable,
  clock: Clock,
  event: OutboxEvent,
): Promise<string> {
  const id = `msg_${newSecretToken(18)}`;
  const now = clock.now();
  await tx.query(
    `INSERT INTO webhook_events (id, client_id, type, payload, callback_url, status,
        next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $6)`,
    [
      id,
      event.clientId,
      event.type,
      JSON.stringify({ type: event.type, data: event.data }),
      event.callbackUrl ?? null,
      now,
    ],
  );
  return id;
}
