import { Type } from 'typebox';
import { CREDIT_BUREAUS, IDENTITY_TYPES } from './providers/identity-bureau.ts';

const IdentityTypeSchema = Type.Enum([...IDENTITY_TYPES], {
  description: 'BVN, NIN, vNIN (with verifierId), BVNUSSD (with otp), CAC or CREDITCHECK',
});

export const InitiateVerificationBody = Type.Object({
  type: IdentityTypeSchema,
  // Third-party clients send the number as a string, some as a number.
  number: Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Integer({ minimum: 0 })]),
  debitAccountNumber: Type.String({ pattern: '^[0-9]{10}$', description: 'Charged the fee' }),
  verifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  provider: Type.Optional(Type.Enum([...CREDIT_BUREAUS])),
  otp: Type.Optional(Type.String({ pattern: '^[0-9]{4,8}$' })),
  async: Type.Optional(
    Type.Boolean({ description: 'Accepted and ignored: checks answer at once.' }),
  ),
});

export const ValidateVerificationBody = Type.Object({
  identityId: Type.String({ maxLength: 64 }),
  type: IdentityTypeSchema,
  otp: Type.String({ pattern: '^[0-9]{4,8}$' }),
});

export const SendOtpBody = Type.Object({
  number: Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Integer({ minimum: 0 })]),
});

/** The verification as the API shows it; `data` holds the verified identity once it is verified. */
export const VerificationSchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  type: Type.String(),
  number: Type.String({ description: 'Masked: only the last four characters show.' }),
  provider: Type.Union([Type.String(), Type.Null()]),
  debitAccountNumber: Type.String(),
  fee: Type.Number(),
  vat: Type.Number(),
  status: Type.Enum(['Pending', 'Verified', 'Failed']),
  isVerified: Type.Boolean(),
  otpSentTo: Type.Union([Type.String(), Type.Null()]),
  otpExpiresAt: Type.Union([Type.String(), Type.Null()]),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  verifiedAt: Type.Union([Type.String(), Type.Null()]),
});

/** An initiation's answer: `status` SUCCESS, the verification's state in `verificationStatus`. */
export const InitiationSchema = Type.Object({
  ...Type.Omit(VerificationSchema, ['status']).properties,
  status: Type.Literal('SUCCESS'),
  verificationStatus: Type.Enum(['Pending', 'Verified', 'Failed']),
});

/** A verification as an operator sees it: masked, with the accounts opened with it. */
export const VerificationOperatorSchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  type: Type.String(),
  number: Type.String({ description: 'Masked: only the last four characters show.' }),
  provider: Type.Union([Type.String(), Type.Null()]),
  status: Type.Enum(['Pending', 'Verified', 'Failed']),
  isVerified: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()], {
    description: 'The verified name (person, company or credit subject); null until verified.',
  }),
  debitAccountNumber: Type.String(),
  accounts: Type.Array(
    Type.Object({
      _id: Type.String(),
      accountNumber: Type.String(),
      as: Type.Enum(['holder', 'director']),
    }),
    { description: "The client's accounts opened with it: as the holder's or a director's." },
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  verifiedAt: Type.Union([Type.String(), Type.Null()]),
});
