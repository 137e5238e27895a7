import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { newOpaqueId } from '../shared/ids.ts';
import {
  findOperatorForSso,
  insertOperator,
  linkOperatorToSso,
  type OperatorRecord,
} from './operator-repository.ts';
import type { SsoIdentity } from './sso-identity.ts';

/** Why the identity provider's word did not make a session. */
export type SsoSignInRefusal = 'no_role' | 'disabled' | 'linked_elsewhere';

/**
 * An operator signed in by the organisation's identity provider (docs/operators.md): found by
 * the provider's (issuer, subject), else by email (an operator an admin added before, linked on
 * their first sign-in), else added with what the provider says. The provider is the authority on
 * an SSO operator's roles: each sign-in takes the roles its claim grants, and a person it grants
 * none is refused. A disabled operator stays refused whatever the provider says.
 */
export async function signInWithSso(
  db: Db,
  clock: Clock,
  identity: SsoIdentity,
): Promise<OperatorRecord | SsoSignInRefusal> {
  if (identity.roles.length === 0) {
    return 'no_role';
  }
  const found = await findOperatorForSso(db, identity);
  if (found === undefined) {
    const created = await insertOperator(db, {
      id: `opr_${newOpaqueId(clock, 12)}`,
      email: identity.email,
      displayName: identity.name ?? identity.email,
      roles: identity.roles,
      createdBy: `sso:${identity.issuer}`,
      now: clock.now(),
    });
    // Lost a race with the same person's other tab: the next attempt finds the row.
    return created === undefined ? 'linked_elsewhere' : link(db, clock, created.id, identity);
  }
  if (found.status !== 'active') {
    return 'disabled';
  }
  if (found.ssoSubject !== null && found.ssoSubject !== identity.subject) {
    return 'linked_elsewhere';
  }
  return link(db, clock, found.id, identity);
}

async function link(
  db: Db,
  clock: Clock,
  id: string,
  identity: SsoIdentity,
): Promise<OperatorRecord | SsoSignInRefusal> {
  const linked = await linkOperatorToSso(db, id, {
    issuer: identity.issuer,
    subject: identity.subject,
    roles: identity.roles,
    now: clock.now(),
  });
  return linked ?? 'disabled';
}
