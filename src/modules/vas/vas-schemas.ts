import { Type } from 'typebox';
import { DateQuery, paginationQuery } from '../../http/common-schemas.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Timestamps = {
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
};

export const ServiceSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  identifier: Type.Enum(['AIRTIME', 'DATA', 'CABLETV', 'UTILITY']),
  description: Type.String(),
  ...Timestamps,
});

const Commission = Type.Object({
  flatAmount: Type.Number(),
  percentageAmount: Type.Number(),
  minCap: Type.Union([Type.Number(), Type.Null()]),
  maxCap: Type.Union([Type.Number(), Type.Null()]),
});

export const CategorySchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  identifier: Type.String(),
  service: Type.String({ description: "The service's _id." }),
  vendor: Type.String(),
  isFixedAmount: Type.Boolean(),
  description: Type.String(),
  logoUrl: Type.String(),
  providerCommission: Type.Union([Commission, Type.Null()]),
  minAmount: Type.Number({ description: 'Naira: the least a variable-amount purchase may be.' }),
  maxAmount: Type.Number({ description: 'Naira: the most a variable-amount purchase may be.' }),
  ...Timestamps,
});

export const ProductSchema = Type.Object({
  name: Type.String(),
  bundleCode: Type.String(),
  amount: Type.Union([Type.Number(), Type.Null()]),
  duration: Type.String(),
  isAmountFixed: Type.Boolean(),
});

export const VerifyBody = Type.Object({
  serviceCategoryId: Type.String({ maxLength: 64 }),
  entityNumber: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9]+$' }),
});

export const VerificationSchema = Type.Object({
  discoCode: Type.Optional(Type.String()),
  vendType: Type.Optional(Type.String()),
  meterNo: Type.Optional(Type.String()),
  minVendAmount: Type.Optional(Type.Number()),
  maxVendAmount: Type.Optional(Type.Number()),
  outstanding: Type.Optional(Type.Number()),
  debtRepayment: Type.Optional(Type.Number()),
  name: Type.String(),
  address: Type.Optional(Type.String()),
  orderId: Type.Optional(Type.String()),
});

const Channel = Type.Enum(['WEB', 'POS', 'ATM'], { default: 'WEB' });
const Amount = Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
  description: 'Naira, at most two decimals.',
});
const AccountNumber = Type.String({ pattern: '^[0-9]{10}$' });
const Phone = Type.String({ pattern: '^(0[0-9]{10}|\\+?234[0-9]{10})$' });
const StatusUrl = Type.Optional(
  Type.String({
    maxLength: 2048,
    description: 'Told (vas.transaction) when a pending purchase ends.',
  }),
);
const common = {
  serviceCategoryId: Type.String({ maxLength: 64 }),
  amount: Amount,
  channel: Channel,
  debitAccountNumber: AccountNumber,
};

export const AirtimeBody = Type.Object({
  ...common,
  phoneNumber: Phone,
  // A real client buys data through this path: a data category with a bundle code.
  bundleCode: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  statusUrl: StatusUrl,
});

export const DataBody = Type.Object({
  ...common,
  phoneNumber: Phone,
  bundleCode: Type.String({ minLength: 1, maxLength: 40 }),
  statusUrl: StatusUrl,
});

export const CableTvBody = Type.Object({
  ...common,
  bundleCode: Type.String({ minLength: 1, maxLength: 40 }),
  cardNumber: Type.String({ pattern: '^[0-9]{6,20}$' }),
  statusUrl: StatusUrl,
});

export const UtilityBody = Type.Object({
  ...common,
  meterNumber: Type.String({ pattern: '^[0-9]{6,20}$' }),
  vendType: Type.String({ minLength: 1, maxLength: 20, default: 'PREPAID' }),
  statusUrl: StatusUrl,
});

export const PurchaseSchema = Type.Object({
  clientId: Type.String(),
  serviceCategoryId: Type.String(),
  reference: Type.String(),
  status: Type.Enum(['pending', 'successful', 'failed']),
  amount: Type.Number(),
  id: Type.String(),
  receiver: Type.Optional(
    Type.Object({
      number: Type.String(),
      name: NullableString,
      customerNumber: Type.Null(),
      distribution: Type.String(),
      vendType: Type.String(),
    }),
  ),
  utilityToken: Type.Optional(NullableString),
});

export const PurchaseTransactionSchema = Type.Object({
  ...PurchaseSchema.properties,
  _id: Type.String(),
  service: Type.Enum(['AIRTIME', 'DATA', 'CABLETV', 'UTILITY']),
  serviceCategory: Type.String({ description: "The category's identifier (MTN, DSTV, IKEJA)." }),
  debitAccountNumber: Type.String(),
  beneficiary: Type.String({ description: 'Phone number, smart card or meter number.' }),
  bundleCode: NullableString,
  channel: Type.String(),
  commission: Type.Number({ description: 'Naira credited back to the debit account.' }),
  utilityToken: NullableString,
  failureReason: NullableString,
  statusUrl: NullableString,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const ListPurchasesQuery = Type.Object({
  service: Type.Optional(Type.Enum(['AIRTIME', 'DATA', 'CABLETV', 'UTILITY'])),
  status: Type.Optional(Type.Enum(['pending', 'successful', 'failed'])),
  debitAccountNumber: Type.Optional(Type.String({ maxLength: 10 })),
  fromDate: Type.Optional(DateQuery),
  toDate: Type.Optional(DateQuery),
  ...paginationQuery(25),
});
