import { sha256Hex } from '../../shared/hashing.ts';
import type { Verification } from './verification.ts';

/**
 * The verified identity behind a check, as a key that names it without its number:
 * "<type>:<SHA-256 of the number>", the same for every check of that identity, so the accounts
 * opened on any of them can share the limits that follow a KYC level.
 *
 * A BVN checked by USSD code is the same BVN. A company is its registry and number, whatever
 * prefix or leading zeros the client typed. Identities that cannot be linked stay apart: a
 * person's BVN and NIN, and a vNIN (a token standing for a NIN, which it does not reveal).
 */
export function identityKey(verification: Pick<Verification, 'type' | 'number' | 'record'>) {
  // The number as the bureau verified it: a BVN or NIN has exactly 11 digits then.
  const number = verification.number;
  switch (verification.type) {
    case 'BVN':
    case 'BVNUSSD':
      return `BVN:${sha256Hex(number)}`;
    case 'vNIN':
      return `vNIN:${sha256Hex(number.toUpperCase())}`;
    case 'CAC': {
      const registry =
        verification.record.kind === 'company' ? verification.record.companyType : '';
      const digits = number.replace(/^(RC|BN|IT)/i, '').replace(/^0+/, '');
      return `CAC:${sha256Hex(`${registry}${digits}`)}`;
    }
    default:
      return `${verification.type}:${sha256Hex(number)}`;
  }
}
