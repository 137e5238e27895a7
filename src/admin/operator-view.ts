import type { Static } from 'typebox';
import type { OperatorApiKeyRecord, OperatorRecord } from '../auth/operator-repository.ts';
import type { OperatorApiKeySchema, OperatorSchema } from './contract/index.ts';

/** An operator as the admin API shows them: never a password hash or a second factor's secret. */
export function operatorView(operator: OperatorRecord): Static<typeof OperatorSchema> {
  return {
    _id: operator.id,
    email: operator.email,
    displayName: operator.displayName,
    roles: [...operator.roles],
    status: operator.status,
    signIn: {
      password: operator.hasPassword,
      secondFactor: operator.hasSecondFactor,
      singleSignOn: operator.ssoIssuer !== null,
    },
    createdAt: operator.createdAt.toISOString(),
    createdBy: operator.createdBy,
    updatedAt: operator.updatedAt.toISOString(),
  };
}

/** A personal API key as its owner sees it: never the key itself after it was issued. */
export function operatorApiKeyView(key: OperatorApiKeyRecord): Static<typeof OperatorApiKeySchema> {
  return {
    _id: key.id,
    name: key.name,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
