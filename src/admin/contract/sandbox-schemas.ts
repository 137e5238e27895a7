import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';
import { NIP_QUEUEABLE_CODES } from '../../rails/nip/nip-simulator.ts';
import { FAULT_KINDS } from '../../sandbox/faults/index.ts';

/** Wire shapes of the sandbox's controls: money from other banks, the clock, faults, resets. */

/** The sandbox's test clock as the admin API shows it. */
export const SandboxClockSchema = Type.Object({
  now: Type.String({ format: 'date-time', description: "The bank's time now." }),
  offsetSeconds: Type.Number({
    description: "The bank's time minus real time, in seconds (it changes while frozen).",
  }),
  frozen: Type.Boolean({
    description: 'Frozen: the time moves only when advanced. Running: real time plus the offset.',
  }),
});

export const SandboxClockBody = Type.Object({
  advance: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'How far to move the clock forward: an ISO 8601 duration in weeks, days, hours, minutes and seconds (PT2H, P1DT30M, PT0.5S), more than zero and at most P400D.',
      examples: ['PT2H'],
    }),
  ),
  freeze: Type.Optional(
    Type.Boolean({
      description: 'true: stop the clock where it is; false: let it run on from where it stopped.',
    }),
  ),
});

export const SandboxWebhooksQuery = Type.Object({
  clientId: Type.Optional(Type.String({ maxLength: 64, description: 'An ibs_client_id.' })),
  type: Type.Optional(Type.String({ maxLength: 64, description: 'The event type: transfer...' })),
  since: Type.Optional(DateQuery),
  after: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,18}$',
      description: 'Only entries recorded after the entry with this _id (a cursor).',
    }),
  ),
  wait: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 30,
      description: 'Seconds to wait until at least one entry matches (long poll); default 0.',
    }),
  ),
  ...paginationQuery(25),
});

export const SandboxWebhookSchema = Type.Object({
  _id: Type.String({ description: 'Increasing in the order the attempts were made.' }),
  eventId: Type.String({ description: 'The webhook-id header: the same on every attempt.' }),
  attempt: Type.Integer(),
  clientId: Type.String(),
  type: Type.String(),
  url: Type.Union([Type.String(), Type.Null()], {
    description: 'Where it was sent; null when the client has no webhook URL (nothing was sent).',
  }),
  requestHeaders: Type.Record(Type.String(), Type.String()),
  requestBody: Type.String({ description: 'The exact bytes signed, as UTF-8 text.' }),
  responseStatus: Type.Union([Type.Integer(), Type.Null()]),
  responseBody: Type.Union([Type.String(), Type.Null()], {
    description: "The receiver's answer, its first 512 bytes.",
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why no answer came: the transport error, or why nothing was sent.',
  }),
  attemptedAt: Type.String({ format: 'date-time' }),
});

export const SandboxFaultBody = Type.Object({
  clientId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The ibs_client_id whose calls fail (the client the access token belongs to).',
  }),
  route: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Method and route pattern as /openapi.json lists them.',
    examples: ['POST /transfers'],
  }),
  fault: Type.Enum([...FAULT_KINDS]),
  times: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'How many calls fail.' }),
  ),
  retryAfterSeconds: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3600,
      description: 'The Retry-After of a 429 fault (default 1).',
    }),
  ),
});

export const SandboxFaultSchema = Type.Object({
  _id: Type.String(),
  clientId: Type.String(),
  route: Type.String({ examples: ['POST /transfers'] }),
  fault: Type.Enum([...FAULT_KINDS]),
  times: Type.Integer(),
  remaining: Type.Integer({ description: 'How many of the calls are still to fail.' }),
  retryAfterSeconds: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const SandboxFaultsQuery = Type.Object({
  clientId: Type.Optional(Type.String({ maxLength: 64 })),
});

export const ClearedSchema = Type.Object({ cleared: Type.Integer() });

export const SandboxCreditBody = Type.Object({
  accountNumber: Type.String({ pattern: '^[0-9]{10}$' }),
  amount: Type.Number({ description: 'Naira, at most two decimals.' }),
  narration: Type.Optional(Type.String({ maxLength: 100 })),
  senderName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  senderAccountNumber: Type.Optional(Type.String({ pattern: '^[0-9]{10}$' })),
  senderBankCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
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

/** What a simulated payment answers: the record it made, as the module's own view renders it. */
export const SandboxPaymentSchema = Type.Record(Type.String(), Type.Unknown());

export const NipNextOutcomeBody = Type.Object({
  responseCode: Type.Enum([...NIP_QUEUEABLE_CODES], {
    description:
      'What the next outbound NIP transfer gets, whatever its kobo (docs/sandbox-nip.md): ' +
      "'97' is no answer at all (a timeout); each code's status queries answer as its kobo's do.",
  }),
});

export const NipOutcomeQueueSchema = Type.Object({
  queue: Type.Array(Type.String(), { description: 'Queued response codes, next first.' }),
});

export const NipReturnBody = Type.Object({
  sessionId: Type.String({
    pattern: '^[0-9]{30}$',
    description: 'The session id of a Completed outbound NIP transfer, which its bank sends back.',
  }),
  reason: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "Why the beneficiary bank returns it; 'Returned by the beneficiary bank' unless given.",
    }),
  ),
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

/**
 * A bulk batch a sandbox operator sends for a client (the dashboard's CSV upload): the body of
 * POST /transfers/bulk with the client and the batch's Idempotency-Key.
 */
export const SandboxBulkTransferBody = Type.Object({
  clientId: Type.String({ minLength: 1, maxLength: 64 }),
  idempotencyKey: Type.String({ pattern: '^[\\x21-\\x7e]{1,255}$' }),
  allOrNothing: Type.Optional(Type.Boolean({ default: false })),
  transfers: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 1000 }),
});

export const SandboxMessagesQuery = Type.Object({
  accountNumber: Type.Optional(
    Type.String({ pattern: '^[0-9]{10}$', description: 'Messages about this account.' }),
  ),
  channel: Type.Optional(Type.Enum(['email', 'sms'])),
  ...paginationQuery(25),
});

/** One alert message as it was rendered for its holder (docs/alerts.md, "The sandbox inbox"). */
export const SandboxMessageSchema = Type.Object({
  _id: Type.String({
    description:
      'Stable: the email Message-ID (<_id@alerts.openibs>) or the SMS de-duplication key.',
  }),
  accountNumber: Type.String(),
  clientId: Type.String(),
  channel: Type.Enum(['email', 'sms']),
  to: Type.String({ description: 'The email address or phone number it went to.' }),
  status: Type.Enum(['pending', 'sent', 'failed', 'suppressed']),
  subject: Type.Union([Type.String(), Type.Null()], { description: 'Email only.' }),
  body: Type.String({ description: 'The text: the SMS, or the email as plain text.' }),
  html: Type.Union([Type.String(), Type.Null()], { description: 'Email only: its HTML part.' }),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  statementMonth: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description:
      "A monthly statement's message: the month (its first day) it is the statement of; its email carries that month's PDF statement. Null for an alert.",
  }),
});
