import { Type } from 'typebox';

/** Wire shapes of customer alerts' suppressed destinations (docs/alerts.md). */

const AlertChannelSchema = Type.Enum(['email', 'sms']);

export const SuppressedDestinationSchema = Type.Object({
  channel: AlertChannelSchema,
  destination: Type.String({ description: 'The email address or phone number refused.' }),
  reason: Type.String({ description: 'What the provider answered when it refused it for good.' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const LiftSuppressionBody = Type.Object({
  channel: AlertChannelSchema,
  destination: Type.String({ minLength: 1, maxLength: 320 }),
});
