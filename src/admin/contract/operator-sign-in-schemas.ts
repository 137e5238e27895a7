import { Type } from 'typebox';

/**
 * A local operator's one-time setup link (docs/operators.md, "Local operators: password and
 * second factor"): the operator opens it to choose a password and register their second factor.
 * Shown once; only its hash is kept.
 */
export const OperatorSetupLinkSchema = Type.Object({
  operatorId: Type.String(),
  url: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

/** An operator's local sign-in as an admin sees it: no secret, the lock and its count. */
export const OperatorSignInStateSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  status: Type.Enum(['active', 'disabled']),
  hasPassword: Type.Boolean(),
  hasSecondFactor: Type.Boolean(),
  failedSignIns: Type.Integer({ minimum: 0 }),
  lockedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
