/**
 * What an operator may do, by role (docs/operators.md). Each admin route names the one role it
 * needs in the admin contract; reads need `viewer`, which every role includes, and the other
 * roles are kept apart: an admin manages operators and roles but moves no money unless also
 * given `finance` (separation of duties, as a bank's auditors expect).
 */
import type { OperatorRole } from '../config/operators-config.ts';

export { OPERATOR_ROLES, type OperatorRole } from '../config/operators-config.ts';

/** Whether an operator holding `held` may use a route that needs `needed`. */
export function rolesAllow(held: readonly OperatorRole[], needed: OperatorRole): boolean {
  return needed === 'viewer' ? held.length > 0 : held.includes(needed);
}
