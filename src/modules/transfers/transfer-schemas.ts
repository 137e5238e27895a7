import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const TransferSchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  account: Type.String(),
  type: Type.Enum(['Inwards', 'Outwards']),
  sessionId: Type.String(),
  nameEnquiryReference: NullableString,
  paymentReference: Type.String(),
  mandateReference: Type.Null(),
  isReversed: Type.Boolean(),
  reversalReference: NullableString,
  provider: Type.String(),
  providerChannel: Type.String(),
  providerChannelCode: Type.String(),
  destinationInstitutionCode: Type.String(),
  creditAccountName: Type.String(),
  creditAccountNumber: Type.String(),
  creditBankVerificationNumber: Type.Null(),
  creditKYCLevel: NullableString,
  debitAccountName: Type.String(),
  debitAccountNumber: Type.String(),
  debitBankVerificationNumber: Type.Null(),
  debitKYCLevel: NullableString,
  transactionLocation: Type.String(),
  narration: Type.String(),
  amount: Type.Number(),
  fees: Type.Number(),
  vat: Type.Number(),
  stampDuty: Type.Number(),
  responseCode: NullableString,
  responseMessage: NullableString,
  status: Type.Enum(['Created', 'Processing', 'Completed', 'Failed', 'Reversed']),
  isDeleted: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
  approvedAt: Type.Optional(Type.String({ format: 'date-time' })),
  declinedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const AccountNumber = Type.String({ pattern: '^[0-9]{10}$' });
const BankCode = Type.String({ pattern: '^[0-9]{6}$' });

export const NameEnquiryBody = Type.Object({
  bankCode: BankCode,
  accountNumber: AccountNumber,
});

export const NameEnquirySchema = Type.Object({
  sessionId: Type.String({ description: 'Quote it as nameEnquiryReference in POST /transfers.' }),
  bankCode: Type.String(),
  bankName: Type.String(),
  accountNumber: Type.String(),
  accountName: Type.String(),
  kycLevel: Type.String(),
  responseCode: Type.String(),
  responseMessage: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const CreateTransferBody = Type.Object({
  nameEnquiryReference: Type.String({ pattern: '^[0-9]{30}$' }),
  debitAccountNumber: AccountNumber,
  beneficiaryBankCode: BankCode,
  beneficiaryAccountNumber: AccountNumber,
  amount: Type.Number({ description: 'Naira, at most two decimals.' }),
  saveBeneficiary: Type.Boolean({ default: false }),
  narration: Type.Optional(Type.String({ maxLength: 100 })),
  paymentReference: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Your reference, unique per client: the same reference and body replays.',
    }),
  ),
});

export const TransferStatusBody = Type.Object({
  sessionId: Type.Optional(Type.String({ maxLength: 64 })),
  paymentReference: Type.Optional(Type.String({ maxLength: 64 })),
});

export const ListTransfersQuery = Type.Object({
  accountId: Type.Optional(Type.String({ maxLength: 64 })),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  type: Type.Optional(Type.Enum(['Inwards', 'Outwards'])),
  status: Type.Optional(Type.Enum(['Created', 'Processing', 'Completed', 'Failed', 'Reversed'])),
  ...paginationQuery(25),
});
