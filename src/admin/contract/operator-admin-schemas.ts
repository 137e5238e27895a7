import { Type } from 'typebox';
import { OPERATOR_ROLES } from '../../auth/operator-roles.ts';

/** Wire shapes of the operators themselves: who they are, their roles, their keys and sessions. */

const RoleSchema = Type.Enum([...OPERATOR_ROLES], {
  description: 'viewer, support, finance, security or admin (docs/operators.md).',
});

const RolesSchema = Type.Array(RoleSchema, { minItems: 1, maxItems: OPERATOR_ROLES.length });

export const OperatorSchema = Type.Object({
  _id: Type.String(),
  email: Type.String(),
  displayName: Type.String(),
  roles: Type.Array(RoleSchema),
  status: Type.Enum(['active', 'disabled']),
  signIn: Type.Object({
    password: Type.Boolean({ description: 'A local password is set.' }),
    secondFactor: Type.Boolean({ description: 'A TOTP second factor is enrolled.' }),
    singleSignOn: Type.Boolean({ description: 'Linked to the identity provider.' }),
  }),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String({ description: 'The audit actor who created this operator.' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CreateOperatorBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  displayName: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  roles: RolesSchema,
});

export const OperatorRolesBody = Type.Object({ roles: RolesSchema });

/** Who the caller is, as the admin API authenticated them. */
export const WhoAmISchema = Type.Object({
  kind: Type.Enum(['operator', 'break-glass']),
  operator: Type.Union([OperatorSchema, Type.Null()]),
  roles: Type.Array(RoleSchema),
  actor: Type.String({ description: 'How the audit trail names the caller.' }),
});

export const IssueApiKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
  expiresInDays: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 366,
      description: 'At most OPERATOR_API_KEY_MAX_DAYS (90 by default); longer asks get that.',
    }),
  ),
});

export const OperatorApiKeySchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const IssuedApiKeySchema = Type.Object({
  key: OperatorApiKeySchema,
  token: Type.String({ description: 'Shown once: only its SHA-256 is kept.' }),
});

export const OperatorKeyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  keyId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const MyKeyParams = Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 64 }) });

export const EndedOperatorSessionsSchema = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
