import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../http/common-schemas.ts';

export const WebhookSettingsSchema = Type.Object({
  url: Type.Union([Type.String(), Type.Null()], {
    description: 'Where events go unless a resource has its own callbackUrl.',
  }),
  secret: Type.String({ description: 'The Standard Webhooks signing secret (whsec_...).' }),
  previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Until then the previous secret signs too (after a rotation).',
  }),
  disabled: Type.Boolean({ description: 'True after the URL answered 410 Gone.' }),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const UpdateWebhookSettingsBody = Type.Object({
  url: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()], {
      description: 'The new URL (re-enables a disabled endpoint), or null to stop deliveries.',
    }),
  ),
  rotateSecret: Type.Optional(
    Type.Boolean({ description: 'Issue a new secret; the old one keeps signing for a while.' }),
  ),
});

export const WebhookAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  attemptedAt: Type.String({ format: 'date-time' }),
  url: Type.Union([Type.String(), Type.Null()]),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  responseExcerpt: Type.Union([Type.String(), Type.Null()]),
});

export const WebhookDeliverySchema = Type.Object({
  _id: Type.String({ description: 'The webhook-id header of every attempt.' }),
  type: Type.String(),
  status: Type.Enum(['pending', 'delivered', 'failed']),
  callbackUrl: Type.Union([Type.String(), Type.Null()], {
    description: "The resource's own URL; null means the client's webhook URL.",
  }),
  attemptCount: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why the last attempt failed: the transport error, or `HTTP <status>` when the receiver answered; null once delivered.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  payload: Type.Unknown({ description: 'The body sent: { type, data }.' }),
  attempts: Type.Array(WebhookAttemptSchema),
});

export const ListDeliveriesQuery = Type.Object({
  status: Type.Optional(Type.Enum(['pending', 'delivered', 'failed'])),
  type: Type.Optional(Type.String({ maxLength: 64 })),
  ...paginationQuery(25),
});

export const ReplayBody = Type.Object({
  since: DateQuery,
});

export const ReplayResultSchema = Type.Object({ replayed: Type.Integer() });
