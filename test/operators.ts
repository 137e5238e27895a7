import type { OperatorIdentity } from '../src/auth/operator-directory.ts';
import type { OperatorRole } from '../src/auth/operator-roles.ts';
import type { TestApp } from './harness.ts';

/** Who creates the tests' operators: break-glass, as on a bank's first day. */
export const BREAK_GLASS: OperatorIdentity = {
  kind: 'break-glass',
  operatorId: null,
  roles: ['viewer', 'support', 'finance', 'security', 'admin'],
  sessionId: 'admin-token',
  actor: 'break-glass:test',
};

export interface TestOperator {
  readonly id: string;
  readonly email: string;
  readonly headers: { readonly authorization: string };
}

let made = 0;

/** An operator with these roles and a personal API key: the headers it signs admin calls with. */
export async function operatorWithRoles(
  testApp: TestApp,
  roles: readonly OperatorRole[],
  email?: string,
): Promise<TestOperator> {
  made += 1;
  const address = email ?? `operator${made}.${roles.join('-') || 'none'}@bank.test`;
  const operator = await testApp.services.operators.create(
    { email: address, displayName: `Operator ${made}`, roles },
    BREAK_GLASS,
  );
  const { token } = await testApp.services.operators.issueApiKey(operator.id, { name: 'tests' });
  return { id: operator.id, email: operator.email, headers: { authorization: `Bearer ${token}` } };
}
