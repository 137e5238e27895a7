import { Type } from 'typebox';
import { MetadataSchema } from '../../http/common-schemas.ts';

const SUB_ACCOUNT_IDENTITY_TYPES = ['BVN', 'NIN', 'vNIN', 'BVNUSSD', 'vID', 'CAC'] as const;

const AutoSweepDetails = Type.Object(
  {
    destinationAccountNumber: Type.String({
      pattern: '^[0-9]{10}$',
      description: 'Another Active account of the same client at this bank',
    }),
    retainAmount: Type.Optional(
      Type.Number({ minimum: 0, description: 'Naira left behind after a sweep (default 0)' }),
    ),
    minimumAmount: Type.Optional(
      Type.Number({ minimum: 0.01, description: 'Smallest sweep worth making (default 1)' }),
    ),
  },
  {
    description: 'After every credit, what is above retainAmount moves to the destination.',
    // Unknown keys are dropped (removeAdditional), never stored.
    additionalProperties: false,
  },
);

const contactFields = {
  phoneNumber: Type.String({ pattern: '^\\+?[0-9]{10,15}$', description: 'With country code' }),
  emailAddress: Type.String({ format: 'email', maxLength: 254 }),
};

export const CreateSubAccountBody = Type.Object({
  ...contactFields,
  externalReference: Type.String({ minLength: 1, maxLength: 100 }),
  identityType: Type.Enum([...SUB_ACCOUNT_IDENTITY_TYPES], { default: 'BVN' }),
  identityNumber: Type.Optional(Type.String({ maxLength: 32 })),
  identityId: Type.Optional(Type.String({ maxLength: 64 })),
  otp: Type.Optional(Type.String({ pattern: '^[0-9]{4,8}$' })),
  metadata: Type.Optional(MetadataSchema),
  autoSweep: Type.Optional(Type.Boolean()),
  autoSweepDetails: Type.Optional(AutoSweepDetails),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  companyName: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Corporate (identityType CAC): checked against CAC',
    }),
  ),
  directorIdentityIds: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 20,
      description: 'Corporate: validated BVN/NIN verifications of directors (at least one)',
    }),
  ),
});

/** PUT /accounts/{id}/subaccount: the sub-account's `_id` or your externalReference for it. */
export const SubAccountKeyParams = Type.Object({
  id: Type.String({
    maxLength: 100,
    description: "The sub-account's _id, or the externalReference you gave it.",
  }),
});

export const UpdateSubAccountBody = Type.Object({
  phoneNumber: Type.Optional(contactFields.phoneNumber),
  emailAddress: Type.Optional(contactFields.emailAddress),
  externalReference: Type.Optional(Type.String({ maxLength: 100 })),
  identityType: Type.Optional(Type.String({ maxLength: 16 })),
  identityNumber: Type.Optional(Type.String({ maxLength: 32 })),
  identityId: Type.Optional(Type.String({ maxLength: 64 })),
  otp: Type.Optional(Type.String({ maxLength: 8 })),
  metadata: Type.Optional(MetadataSchema),
  autoSweep: Type.Optional(Type.Boolean()),
  autoSweepDetails: Type.Optional(AutoSweepDetails),
  callbackUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
});
