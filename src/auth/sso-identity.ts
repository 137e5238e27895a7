import { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from '../config/operators-config.ts';
import type { SingleSignOnConfig } from '../config/sso-config.ts';
import { SingleSignOnError } from './sso-errors.ts';

/** Who signed in, as the identity provider vouches for them. */
export interface SsoIdentity {
  /** With `subject`, the operator's stable identity: link operators by this pair, not by email. */
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly name: string | undefined;
  /** OpenIBS roles from the roles claim, in OPERATOR_ROLES order, each once. */
  readonly roles: readonly OperatorRole[];
}

type Claims = Readonly<Record<string, unknown>>;

/** The identity from verified claims; refuses one without a usable email. */
export function identityFromClaims(
  claims: Claims,
  config: Pick<SingleSignOnConfig, 'rolesClaim' | 'roleMap'>,
): SsoIdentity {
  const { iss, sub, email } = claims;
  if (typeof iss !== 'string' || typeof sub !== 'string' || sub === '') {
    throw new SingleSignOnError('id_token_invalid', 'the ID token has no issuer or subject');
  }
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new SingleSignOnError('no_email', 'the identity provider sent no email address');
  }
  // Absent is accepted (many enterprise providers omit it); false means nobody proved the address.
  if (claims.email_verified === false) {
    throw new SingleSignOnError(
      'email_unverified',
      'the identity provider has not verified the email',
    );
  }
  return Object.freeze({
    issuer: iss,
    subject: sub,
    email: email.toLowerCase(),
    name: typeof claims.name === 'string' && claims.name !== '' ? claims.name : undefined,
    roles: Object.freeze(rolesFromClaim(claims[config.rolesClaim], config.roleMap)),
  });
}

/**
 * A string array or a space-separated string. With a role map only mapped groups count, so a
 * directory group that happens to be called "admin" gives nothing unless the bank said so.
 */
export function rolesFromClaim(
  value: unknown,
  roleMap: Readonly<Record<string, OperatorRole>> | undefined,
): OperatorRole[] {
  const names = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : typeof value === 'string'
      ? value.split(/\s+/)
      : [];
  const granted = new Set<OperatorRole>();
  for (const name of names) {
    const role = roleMap === undefined ? name : Object.hasOwn(roleMap, name) ? roleMap[name] : '';
    if (isOperatorRole(role)) {
      granted.add(role);
    }
  }
  return OPERATOR_ROLES.filter((role) => granted.has(role));
}
