import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const UssdBankSchema = Type.Object({
  bankName: Type.String({ examples: ['Guaranty Trust Bank'] }),
  ussdBankCode: Type.String({
    description: 'What a reference names its bank by.',
    examples: ['737'],
  }),
  ussdCode: Type.String({ description: "The bank's short code as dialled.", examples: ['*737#'] }),
  bankCode: Type.String({ description: 'The NIBSS NIP institution code.', examples: ['000013'] }),
});

export const CreateUssdReferenceBody = Type.Object({
  amount: Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: 'Naira (at most two decimals), a number or a decimal string.',
  }),
  merchantName: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    description: 'Shown to the customer by their bank.',
  }),
  ussdBankCode: Type.String({
    minLength: 1,
    maxLength: 10,
    description: "The customer's bank, from GET /ussd-payment/banks: 737 (or *737#).",
  }),
  callbackUrl: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'Receives the ussd.payment event (so does your webhook URL, if set).',
  }),
  settlementAccount: Type.Object({
    bankCode: Type.String({ maxLength: 6 }),
    accountNumber: Type.String({ maxLength: 10 }),
  }),
});

export const UssdReferenceParams = Type.Object({ reference: Type.String({ maxLength: 64 }) });

export const ListUssdReferencesQuery = Type.Object({
  status: Type.Optional(Type.Enum(['Pending', 'Paid', 'Expired'])),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  ...paginationQuery(25),
});

export const UssdReferenceSchema = Type.Object({
  _id: Type.String(),
  reference: Type.String({ examples: ['4821907316'] }),
  ussdString: NullableString,
  ussdBankCode: Type.String(),
  bankName: NullableString,
  merchantName: Type.String(),
  amount: Type.Number(),
  currencyCode: Type.String(),
  status: Type.Enum(['Pending', 'Paid', 'Expired']),
  expiresAt: Type.String({ format: 'date-time' }),
  callbackUrl: NullableString,
  settlementAccount: Type.Object({ bankCode: Type.String(), accountNumber: Type.String() }),
  payment: Type.Union([
    Type.Object({
      sessionId: Type.String(),
      amount: Type.Number(),
      fees: Type.Number(),
      vat: Type.Number(),
      stampDuty: Type.Number(),
      ussdBankCode: Type.String(),
      bankName: NullableString,
      bankCode: Type.String(),
      payerAccountName: Type.String(),
      payerAccountNumber: Type.String(),
      transferId: Type.String(),
      paidAt: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
