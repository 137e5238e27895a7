import { Type } from 'typebox';
import { AccountSchema } from '../modules/accounts/index.ts';

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

export const SandboxVirtualAccountPaymentBody = Type.Object({
  accountNumber: Type.String({ pattern: '^[0-9]{10}$', description: 'The virtual account.' }),
  amount: Type.Number({ description: 'Naira, at most two decimals.' }),
  narration: Type.Optional(Type.String({ maxLength: 100 })),
  payerName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  payerAccountNumber: Type.Optional(Type.String({ pattern: '^[0-9]{10}$' })),
  payerBankCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
  scenario: Type.Optional(
    Type.Enum(['onTime', 'afterExpiry', 'duplicateSession'], {
      description:
        'onTime (default); afterExpiry: received a second after the account expired; ' +
        'duplicateSession: delivered twice under one session id.',
    }),
  ),
});

export const SandboxUssdDialBody = Type.Object({
  reference: Type.String({ pattern: '^[0-9]{10}$', description: 'The USSD reference dialled.' }),
  ussdBankCode: Type.Optional(
    Type.String({
      maxLength: 10,
      description: "The customer's bank (USSD code, 737 or *737#); default the reference's own.",
    }),
  ),
  amount: Type.Optional(
    Type.Number({ description: "Naira the customer's bank debits; default the reference's." }),
  ),
});

export const SandboxCreditBody = Type.Object({
  accountNumber: Type.String({ pattern: '^[0-9]{10}$' }),
  amount: Type.Number({ description: 'Naira, at most two decimals.' }),
  narration: Type.Optional(Type.String({ maxLength: 100 })),
  senderName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  senderAccountNumber: Type.Optional(Type.String({ pattern: '^[0-9]{10}$' })),
  senderBankCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
});

export const UpdateVasCategoryBody = Type.Object({
  providerCommission: Type.Optional(
    Type.Union([
      Type.Object({
        flatAmount: Type.Number({ minimum: 0, maximum: 1_000_000 }),
        percentageAmount: Type.Number({ minimum: 0, maximum: 100 }),
        minCap: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        maxCap: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      }),
      Type.Null(),
    ]),
  ),
  minAmount: Type.Optional(Type.Number({ description: 'Naira.' })),
  maxAmount: Type.Optional(Type.Number({ description: 'Naira.' })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const UpdateVasProductsBody = Type.Object({
  products: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 120 }),
      bundleCode: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_.|-]+$' }),
      amount: Type.Union([Type.Number(), Type.Null()], {
        description: 'Naira; null: the buyer chooses.',
      }),
      duration: Type.String({ minLength: 1, maxLength: 40 }),
      isAmountFixed: Type.Boolean(),
    }),
    { maxItems: 500 },
  ),
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

export const AppKeyParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  appId: Type.String({ maxLength: 64 }),
});

export const ClientAccessSchema = Type.Object({
  client: Type.String(),
  status: Type.Enum(['Active', 'Disabled']),
  disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  tokensRevokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const AuditEventSchema = Type.Object({
  _id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String(),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  sourceIp: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
});

/** What sandbox fixtures made, for a test to find it (src/sandbox/fixtures/load-fixtures.ts). */
export const FixturesSummarySchema = Type.Object({
  seed: Type.Union([Type.String(), Type.Null()]),
  clients: Type.Array(
    Type.Object({
      name: Type.String(),
      ibsClientId: Type.String(),
      oauthClientIds: Type.Array(Type.String()),
      mainAccountNumber: Type.String(),
      accountNumbers: Type.Array(Type.String(), { description: 'The main account first.' }),
      subAccountNumbers: Type.Array(Type.String()),
      virtualAccountNumbers: Type.Array(Type.String(), {
        description: "Numbers the bank gave the fixtures' virtual accounts, in their order.",
      }),
    }),
  ),
});

export const SandboxResetSchema = Type.Object({
  tookMs: Type.Number({ description: 'How long the reset took inside the server.' }),
  fixtures: FixturesSummarySchema,
});
