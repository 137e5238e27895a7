import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';
import { TransferSchema } from '../transfers/index.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const AmountControl = Type.Enum(['Fixed', 'UnderPayment', 'OverPayment']);

export const CreateVirtualAccountBody = Type.Object({
  validFor: Type.Optional(
    Type.Integer({
      description: 'Seconds it takes payments for (default 900, bounded by config).',
    }),
  ),
  callbackUrl: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'Receives its payment webhooks; absent or "": the client\'s webhook URL.',
    }),
  ),
  settlementAccount: Type.Object({
    bankCode: Type.String({ maxLength: 6 }),
    accountNumber: Type.String({ maxLength: 10 }),
  }),
  amountControl: AmountControl,
  amount: Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: 'Naira (at most two decimals), a number or a decimal string.',
  }),
  externalReference: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Your reference, unique per client: the same body replays, another is 409.',
    }),
  ),
  accountName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 60, description: 'Shown after your name.' }),
  ),
});

// The published SDK sends the id again in the body (`account_id`): extra fields are ignored.
export const UpdateVirtualAccountBody = Type.Object({
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const VirtualAccountStatusBody = Type.Object({
  sessionId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ListVirtualAccountsQuery = Type.Object({
  status: Type.Optional(Type.Enum(['Active', 'Paid', 'Expired'])),
  externalReference: Type.Optional(Type.String({ maxLength: 100 })),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  ...paginationQuery(25),
});

export const VirtualAccountSchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  accountNumber: Type.String({ examples: ['1000000018'] }),
  accountName: Type.String(),
  bankCode: Type.String(),
  bank: Type.Object({ name: Type.String(), nipCode: Type.String() }),
  currencyCode: Type.String({ examples: ['NGN'] }),
  validFor: Type.Integer(),
  amountControl: AmountControl,
  amount: Type.Number(),
  amountPaid: Type.Number(),
  expiryDate: Type.String({ format: 'date-time' }),
  callbackUrl: NullableString,
  settlementAccount: Type.Object({ bankCode: Type.String(), accountNumber: Type.String() }),
  externalReference: NullableString,
  status: Type.Enum(['Active', 'Paid', 'Expired', 'Deleted']),
  isDeleted: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
});

/** GET /virtual-accounts/:id: its name, number and bank also at the top level (okVirtualAccount). */
export const VirtualAccountEnvelopeSchema = Type.Object({
  statusCode: Type.Integer({ examples: [200] }),
  message: Type.String(),
  accountName: VirtualAccountSchema.properties.accountName,
  accountNumber: VirtualAccountSchema.properties.accountNumber,
  bank: VirtualAccountSchema.properties.bank,
  data: VirtualAccountSchema,
});

// The transfer object with `virtualAccount` in place of `account` (virtualAccountTransferView).
const {
  _id,
  client,
  account: _settlement,
  type: _type,
  mandateReference: _none,
  ...transferFields
} = TransferSchema.properties;

export const VirtualAccountTransferSchema = Type.Object({
  _id,
  client,
  virtualAccount: Type.String(),
  ...transferFields,
  externalReference: NullableString,
});

/** The operator's view: the virtual account with the payments it received, oldest first. */
export const VirtualAccountWithPaymentsSchema = Type.Object({
  ...VirtualAccountSchema.properties,
  payments: Type.Array(VirtualAccountTransferSchema),
});
