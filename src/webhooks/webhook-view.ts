import type { Static } from 'typebox';
import type { WebhookEndpoint } from './endpoint-repository.ts';
import type { WebhookAttempt, WebhookEvent } from './event-repository.ts';
import type { WebhookDeliverySchema, WebhookSettingsSchema } from './webhook-schemas.ts';

export function webhookSettingsView(
  endpoint: WebhookEndpoint,
  now: Date,
): Static<typeof WebhookSettingsSchema> {
  const graceOpen =
    endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return {
    url: endpoint.url,
    secret: endpoint.secret,
    previousSecretExpiresAt: graceOpen
      ? (endpoint.previousSecretExpiresAt?.toISOString() ?? null)
      : null,
    disabled: endpoint.disabledAt !== null,
    disabledReason: endpoint.disabledReason,
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function webhookDeliveryView(delivery: {
  event: WebhookEvent;
  attempts: WebhookAttempt[];
}): Static<typeof WebhookDeliverySchema> {
  const { event } = delivery;
  return {
    _id: event.id,
    type: event.type,
    status: event.status,
    callbackUrl: event.callbackUrl,
    attemptCount: event.attempts,
    nextAttemptAt: event.status === 'pending' ? event.nextAttemptAt.toISOString() : null,
    lastError: event.lastError,
    createdAt: event.createdAt.toISOString(),
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
    payload: event.payload,
    attempts: delivery.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      attemptedAt: attempt.attemptedAt.toISOString(),
      url: attempt.url,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      responseExcerpt: attempt.responseExcerpt,
    })),
  };
}
