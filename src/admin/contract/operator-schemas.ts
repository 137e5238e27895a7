import { Type } from 'typebox';
import { AccountSchema } from '../../modules/accounts/index.ts';

/** Wire shapes of what an operator does to clients: onboarding, apps and keys, access, webhooks. */

export const CreateClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  emailAddress: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
});

export const ClientSchema = Type.Object({
  _id: Type.String({ description: "The client's ibs_client_id (the ClientID header value)." }),
  name: Type.String(),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
  mainAccount: AccountSchema,
  createdAt: Type.String({ format: 'date-time' }),
});

export const RegisterAppBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  publicKey: Type.String({
    minLength: 1,
    maxLength: 16384,
    description: 'X.509 certificate PEM or SPKI public key PEM (RSA >= 2048 bits, or P-256).',
  }),
});

export const AppSchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  clientId: Type.String({ description: 'The OAuth client id: the client assertion `sub`.' }),
  name: Type.String(),
  algorithm: Type.Enum(['RS256', 'ES256']),
  createdAt: Type.String({ format: 'date-time' }),
});

export const AppKeySchema = Type.Object({
  _id: Type.String(),
  algorithm: Type.Enum(['RS256', 'ES256']),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const AppWithKeysSchema = Type.Object({
  ...AppSchema.properties,
  status: Type.Enum(['Active', 'Revoked']),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  keys: Type.Array(AppKeySchema),
});

export const AddAppKeyBody = Type.Object({ publicKey: RegisterAppBody.properties.publicKey });

export const AppParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  appId: Type.String({ maxLength: 64 }),
});

export const AppKeyParams = Type.Object({
  ...AppParams.properties,
  keyId: Type.String({ maxLength: 64 }),
});

/** What a revocation answers: the id of what was revoked. */
export const RevokedSchema = Type.Object({ _id: Type.String() });

export const ClientAccessSchema = Type.Object({
  client: Type.String(),
  status: Type.Enum(['Active', 'Disabled']),
  disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  tokensRevokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const SetWebhookBody = Type.Object({
  url: Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()]),
  rotateSecret: Type.Optional(
    Type.Boolean({
      description:
        'Make a new signing secret; the previous one keeps signing for the grace period.',
    }),
  ),
});

/** The answer to setting a webhook: the only place the signing secret is shown. */
export const WebhookSetSchema = Type.Object({
  url: Type.Union([Type.String(), Type.Null()]),
  secret: Type.String(),
});

export const WebhookUrlSchema = Type.Object({ url: Type.Union([Type.String(), Type.Null()]) });

export const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  eventId: Type.String({ maxLength: 64 }),
});

export const DashboardLoginLinkSchema = Type.Object({
  url: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const EndedSessionsSchema = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
