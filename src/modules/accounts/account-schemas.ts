import { Type } from 'typebox';
import { DateQuery, MetadataSchema, paginationQuery } from '../../http/common-schemas.ts';

const notificationSettingFields = {
  smsNotification: Type.Boolean(),
  emailNotification: Type.Boolean(),
  smsMonthlyStatement: Type.Boolean(),
  emailMonthlyStatement: Type.Boolean(),
};

export const NotificationSettingsSchema = Type.Object(notificationSettingFields);

export const AccountSchema = Type.Object({
  _id: Type.String({ examples: ['6745a1f2c3d4e5f6a7b8c9d0'] }),
  client: Type.String({ description: 'The owning client (its ibs_client_id).' }),
  accountNumber: Type.String({ examples: ['1000000018'] }),
  accountName: Type.String(),
  accountType: Type.Enum(['Current', 'Savings']),
  currencyCode: Type.String({ examples: ['NGN'] }),
  bankCode: Type.String({ description: 'Our NIP institution code.' }),
  accountBalance: Type.Number({ description: 'Available balance in naira: book minus locked.' }),
  bookBalance: Type.Number({ description: 'Ledger balance in naira: the sum of all entries.' }),
  lockedBalance: Type.Number({
    description:
      'Naira the account cannot use: held for transfers still in flight, plus what it owes under ' +
      'liens (GET /accounts/:id/liens).',
  }),
  status: Type.Enum(['Active', 'Frozen', 'Closed']),
  isSubAccount: Type.Boolean(),
  kycLevel: Type.String({ examples: ['1'] }),
  externalReference: Type.Union([Type.String(), Type.Null()]),
  callbackUrl: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  notificationSettings: NotificationSettingsSchema,
  // Sub-accounts only (null on the client's own accounts).
  accountHolderType: Type.Union([Type.Enum(['Individual', 'Corporate']), Type.Null()]),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
  identityType: Type.Union([Type.String(), Type.Null()]),
  identityId: Type.Union([Type.String(), Type.Null()]),
  autoSweep: Type.Boolean(),
  autoSweepDetails: Type.Union([
    Type.Object({
      destinationAccountNumber: Type.String(),
      retainAmount: Type.Number(),
      minimumAmount: Type.Number(),
    }),
    Type.Null(),
  ]),
  isVirtualAccount: Type.Boolean({
    description: 'A virtual account, listed with sub-accounts (GET /accounts?isSubAccount=true).',
  }),
  expiryDate: Type.Optional(
    Type.String({ format: 'date-time', description: 'Virtual accounts only: when it expires.' }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CreateAccountBody = Type.Object({
  accountType: Type.Optional(Type.Enum(['Current', 'Savings'], { default: 'Current' })),
  suffix: Type.Optional(
    Type.String({ maxLength: 40, description: 'Appended to the client name: "NAME / suffix".' }),
  ),
  metadata: Type.Optional(MetadataSchema),
});

export const ListAccountsQuery = Type.Object({
  isSubAccount: Type.Boolean({
    default: false,
    description:
      'true lists sub-accounts, then virtual accounts; false (the default) main accounts.',
  }),
  ...paginationQuery(100),
});

export const UpdateAccountBody = Type.Object({
  // Partial settings; unknown ones are dropped (removeAdditional), never stored.
  notificationSettings: Type.Optional(
    Type.Partial(NotificationSettingsSchema, { additionalProperties: false }),
  ),
});

export const StatementQuery = Type.Object({
  ...paginationQuery(100),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  type: Type.Optional(Type.Enum(['Credit', 'Debit'])),
});

/**
 * The statement's query with the document asked for: the JSON page (the default), or the
 * whole range as a PDF or CSV document (docs/statements.md). `Accept: application/pdf` or
 * `text/csv` asks for one too; `format` wins over the header.
 */
export const StatementDocumentQuery = Type.Object({
  ...StatementQuery.properties,
  format: Type.Optional(
    Type.Enum(['json', 'pdf', 'csv'], {
      description:
        'json (the default): a page of rows. pdf or csv: every entry of fromDate..toDate (dates in Africa/Lagos), page and limit aside.',
    }),
  ),
});

export const StatementRowSchema = Type.Object({
  entryNumber: Type.Integer({ description: 'The entry number on this account: 1, 2, 3...' }),
  type: Type.Enum(['Credit', 'Debit']),
  amount: Type.Number({ description: 'Naira, always positive.' }),
  balanceAfter: Type.Number({ description: 'Book balance in naira after this entry.' }),
  narration: Type.String(),
  reference: Type.Union([Type.String(), Type.Null()], {
    description: 'The payment reference of the movement.',
  }),
  transferId: Type.Union([Type.String(), Type.Null()], {
    description: 'The `_id` of the transfer that made this entry.',
  }),
  journalId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

/** A lien on an account (an OpenIBS extension): what the account owes the bank, and why. */
export const LienSchema = Type.Object({
  _id: Type.String(),
  account: Type.String({ description: 'The `_id` of the account that owes it.' }),
  amount: Type.Number({ description: 'Naira: what the account owed when the lien was placed.' }),
  outstanding: Type.Number({ description: 'Naira still owed: its next credits pay it first.' }),
  writtenOff: Type.Number({ description: 'Naira an operator released it for.' }),
  reason: Type.String({ examples: ['Recall of 000013...: Credit sent in error'] }),
  reference: Type.String({
    description: 'What placed it: the recall session id, or the reversal id.',
  }),
  status: Type.Enum(['active', 'filled', 'released']),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
