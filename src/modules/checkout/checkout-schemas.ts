import { Type } from 'typebox';
import { MetadataSchema } from '../../http/common-schemas.ts';

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

/** The published Checkout.js config, as the widget posts it (its functions stay in the page). */
export const CreateCheckoutSessionBody = Type.Object({
  environment: Type.Enum(['sandbox', 'production']),
  clientId: Type.String({ minLength: 1, maxLength: 200, description: 'Your OAuth client id.' }),
  referenceCode: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9._:-]+$',
    description: 'Your reference for the payment, unique among yours.',
  }),
  customer: Type.Object({
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    emailAddress: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
    phoneNumber: Type.Optional(Type.String({ maxLength: 20, pattern: '^\\+?[0-9]{7,15}$' })),
  }),
  currency: Type.String({ maxLength: 3 }),
  amount: Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: 'Naira (at most two decimals).',
  }),
  feeBearer: Type.Optional(Type.Enum(['account', 'customer'])),
  settlementAccount: Type.Object({
    bankCode: Type.String({ maxLength: 6 }),
    accountNumber: Type.String({ maxLength: 10 }),
  }),
  redirectUrl: Type.Optional(Url('Where the customer goes after paying (instead of callback).')),
  webhookUrl: Type.Optional(Url('Receives the checkout.payment event; default your webhook URL.')),
  customIconUrl: Type.Optional(Url('Your logo, shown on the payment page.')),
  metadata: Type.Optional(MetadataSchema),
});

export const CheckoutSessionParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const CheckoutPageHeaders = Type.Object({
  'x-checkout-token': Type.String({ minLength: 1, maxLength: 100 }),
});
export const OpenUssdBody = Type.Object({
  ussdBankCode: Type.String({ minLength: 1, maxLength: 10 }),
});
export const SimulateBody = Type.Object({ method: Type.Enum(['BANK_TRANSFER', 'USSD']) });
export const VerifyParams = Type.Object({ referenceCode: Type.String({ maxLength: 100 }) });

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const CheckoutVerifySchema = Type.Object({
  _id: Type.String(),
  referenceCode: Type.String(),
  status: Type.Enum(['Pending', 'Completed', 'Expired']),
  currency: Type.String(),
  amount: Type.Number(),
  amountPaid: NullableNumber,
  fees: NullableNumber,
  settledAmount: NullableNumber,
  feeBearer: Type.Enum(['account', 'customer']),
  channel: Type.Union([Type.Enum(['BANK_TRANSFER', 'USSD']), Type.Null()]),
  transactionId: NullableString,
  paidAt: NullableString,
  customer: Type.Object({
    firstName: Type.String(),
    lastName: Type.String(),
    emailAddress: Type.String(),
    phoneNumber: NullableString,
  }),
  settlementAccount: Type.Object({ bankCode: Type.String(), accountNumber: Type.String() }),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  expiresAt: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** The origins and webhook URLs a client registers for its checkout (PUT replaces both lists). */
export const CheckoutSettingsBody = Type.Object({
  allowedOrigins: Type.Array(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'An origin: https://shop.example.com',
    }),
    {
      maxItems: 20,
      description:
        'Where your checkout pages are served from: the widget opens sessions only from these, ' +
        'and redirectUrl must be on one of them.',
    },
  ),
  webhookUrls: Type.Optional(
    Type.Array(Url('A URL a config may name as its webhookUrl.'), {
      maxItems: 10,
      description: 'URLs besides your webhook URL that a checkout config may name as webhookUrl.',
    }),
  ),
});

export const CheckoutSettingsSchema = Type.Object({
  allowedOrigins: Type.Array(Type.String()),
  webhookUrls: Type.Array(Type.String()),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
