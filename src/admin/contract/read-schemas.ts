import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';
import { TransferSchema } from '../../modules/transfers/index.ts';
import { ListUssdReferencesQuery } from '../../modules/ussd/index.ts';
import { ListPurchasesQuery } from '../../modules/vas/index.ts';

/** Wire shapes of the operator's read routes (the dashboard's): clients, transfers, ledger. */

export const AdminPageQuery = Type.Object({ ...paginationQuery(25) });

export const AccountNumberParams = Type.Object({
  accountNumber: Type.String({ pattern: '^[0-9]{10}$' }),
});

export const CheckoutSessionsQuery = Type.Object({
  status: Type.Optional(Type.Enum(['Pending', 'Completed', 'Expired'])),
  ...paginationQuery(25),
});

export const UssdReferencesQuery = Type.Object({
  status: ListUssdReferencesQuery.properties.status,
  ...paginationQuery(25),
});

export const VasPurchasesQuery = Type.Object({
  status: ListPurchasesQuery.properties.status,
  ...paginationQuery(25),
});

export const AuditEventsQuery = Type.Object({
  action: Type.Optional(
    Type.String({
      maxLength: 120,
      description: 'An action, or its area: `token` matches `token.*`.',
    }),
  ),
  actor: Type.Optional(Type.String({ maxLength: 120 })),
  target: Type.Optional(Type.String({ maxLength: 200 })),
  from: Type.Optional(DateQuery),
  to: Type.Optional(DateQuery),
  ...paginationQuery(50),
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

export const ClientAccountsQuery = Type.Object({
  accountNumber: Type.Optional(
    Type.String({
      pattern: '^[0-9]{10}$',
      description: 'Only this account, if it is the client’s.',
    }),
  ),
  ...paginationQuery(25),
});

export const ClientAccountParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  accountId: Type.String({ maxLength: 64 }),
});

export const ClientTransferParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  transferId: Type.String({ maxLength: 64 }),
});

export const AdminTransfersQuery = Type.Object({
  status: Type.Optional(
    Type.Enum(['Created', 'Processing', 'Completed', 'Failed', 'Reversed'], {
      description: 'The transfer `status`.',
    }),
  ),
  direction: Type.Optional(
    Type.Enum(['Inwards', 'Outwards'], {
      description:
        'The transfer `type`: Outwards, sent by the client (intra-bank or NIP); Inwards, ' +
        "received (from another bank, or the recipient's side of an intra-bank transfer).",
    }),
  ),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  ...paginationQuery(25),
});

const Time = Type.String({ format: 'date-time' });
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const TransferStorySchema = Type.Object({
  transfer: TransferSchema,
  ledgerEntries: Type.Array(
    Type.Object({
      journalId: Type.String(),
      journalKind: Type.String({ examples: ['intra_bank_transfer', 'outbound_transfer'] }),
      accountId: Type.String({ description: 'The ledger account: an account `_id` or a GL id.' }),
      accountNumber: Type.Union([Type.String(), Type.Null()], {
        description: "A customer account's number; null on a GL account.",
      }),
      accountName: Type.String({ description: 'The ledger account name.' }),
      isGlAccount: Type.Boolean(),
      type: Type.Enum(['Credit', 'Debit']),
      amount: Type.Number({ description: 'Naira, always positive; `type` says the direction.' }),
      balanceAfter: Type.Number({ description: 'Naira: the ledger account balance after it.' }),
      narration: Type.String(),
      createdAt: Time,
    }),
  ),
  nip: Type.Union(
    [
      Type.Object({
        sessionId: Type.String(),
        responseCode: NullableString,
        responseMessage: NullableString,
        statusQueries: Type.Integer({ description: 'Status queries (TSQ) asked so far.' }),
        nextStatusQueryAt: Type.Union([Time, Type.Null()], {
          description:
            'When the next status query is due: while Processing, or once Completed the check for a return whose notice was lost (NIP_RETURN_CHECK_SECONDS); null otherwise.',
        }),
      }),
      Type.Null(),
    ],
    { description: 'What the NIP network answered; null for an intra-bank transfer.' },
  ),
  webhookEvents: Type.Array(
    Type.Object({
      _id: Type.String(),
      type: Type.String(),
      status: Type.Enum(['pending', 'delivered', 'failed']),
      attempts: Type.Integer(),
      lastError: NullableString,
      createdAt: Time,
      deliveredAt: Type.Union([Time, Type.Null()]),
    }),
  ),
});

export const LedgerOverviewSchema = Type.Object({
  glAccounts: Type.Array(
    Type.Object({
      _id: Type.String({ examples: ['gl.fee_income'] }),
      name: Type.String(),
      balance: Type.Number({ description: 'Naira; credit positive, as every ledger balance.' }),
      lockedBalance: Type.Number({ description: 'Naira held (GL accounts hold none).' }),
      allowNegative: Type.Boolean({
        description: 'Mirrors money at other banks (settlement, float): may go below zero.',
      }),
      entryCount: Type.Integer(),
      lastEntryAt: Type.Union([Time, Type.Null()]),
    }),
  ),
  totals: Type.Object({
    customerBalances: Type.Number({ description: "Naira: every customer account's balance." }),
    glBalances: Type.Number({ description: "Naira: every GL account's balance." }),
    allBalances: Type.Number({
      description: 'customerBalances + glBalances: 0, as every journal sums to zero.',
    }),
    lockedBalances: Type.Number({ description: 'Naira held for transfers in flight.' }),
    ledgerAccounts: Type.Integer(),
  }),
  ok: Type.Boolean({
    description: 'true when every invariant holds (every count is zero) and the balances sum to 0.',
  }),
  violations: Type.Record(Type.String(), Type.Integer(), {
    description:
      'verifyLedger (src/ledger/ledger-audit.ts): violations of each invariant, by name ' +
      '(unbalancedJournals, journalsWithoutEntries, accountCountersWrong, ' +
      'runningBalanceOrTimeWrong, overdrawnEntries, lienTotalsWrong, lienReceivableWrong, ' +
      'liensWithFundsLeft).',
  }),
});
