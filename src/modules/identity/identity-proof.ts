import type { Principal } from '../../auth/principal.ts';
import { AppError } from '../../errors/app-error.ts';
import type { IdentityClaim, IdentityProof, ProvenHolder } from '../accounts/index.ts';
import { identityKey } from './identity-key.ts';
import type { IdentityService } from './identity-service.ts';
import type { Director, PersonRecord } from './providers/identity-bureau.ts';
import type { Verification } from './verification.ts';

const PERSON_TYPES = new Set(['BVN', 'NIN', 'vNIN', 'BVNUSSD']);

/**
 * Checks a sub-account's identity claim against the caller's own verifications. KYC tiers
 * (docs/api.md): '2' for a person verified by BVN or NIN, '3' for a company verified by CAC
 * with a validated director.
 */
export function createIdentityProof(identity: IdentityService): IdentityProof {
  async function individual(principal: Principal, claim: IdentityClaim): Promise<ProvenHolder> {
    const verification = await validatedPerson(principal, claim.identityId, claim, claim.otp);
    const person = verification.record as PersonRecord;
    return {
      type: 'Individual',
      accountName: fullName(person),
      kycLevel: '2',
      identityId: verification.id,
      identityKey: identityKey(verification),
      directorIdentityIds: [],
    };
  }

  async function corporate(principal: Principal, claim: IdentityClaim): Promise<ProvenHolder> {
    const cac = await ownVerification(principal, claim.identityId);
    if (cac.type !== 'CAC' || cac.status !== 'Verified' || cac.record.kind !== 'company') {
      throw notVerified('identityId must be a verified CAC check of the company.');
    }
    if (claim.identityNumber !== undefined && !sameRegistration(claim.identityNumber, cac.number)) {
      throw notVerified('The CAC check is for a different registration number.');
    }
    const company = cac.record;
    if (
      claim.companyName !== undefined &&
      normalise(claim.companyName) !== normalise(company.companyName)
    ) {
      throw new AppError('IDENTITY_MISMATCH', 'companyName does not match the CAC record.');
    }
    const directorIds = claim.directorIdentityIds ?? [];
    if (directorIds.length === 0) {
      throw notVerified(
        'A corporate sub-account needs at least one director whose BVN or NIN was verified and validated.',
      );
    }
    for (const directorId of directorIds) {
      // vID: any validated person check (BVN, NIN, vNIN, BVNUSSD) may prove a director.
      const director = await validatedPerson(principal, directorId, { identityType: 'vID' });
      if (!company.directors.some((entry) => isSameDirector(entry, director))) {
        throw notVerified(
          `Verification ${directorId} is not of a director of ${company.companyName}.`,
        );
      }
    }
    return {
      type: 'Corporate',
      accountName: company.companyName.toUpperCase(),
      kycLevel: '3',
      identityId: cac.id,
      identityKey: identityKey(cac),
      directorIdentityIds: [...directorIds],
    };
  }

  async function validatedPerson(
    principal: Principal,
    identityId: string | undefined,
    claim: Pick<IdentityClaim, 'identityType' | 'identityNumber'>,
    otp?: string,
  ): Promise<Verification> {
    let verification = await ownVerification(principal, identityId);
    if (!PERSON_TYPES.has(verification.type) || verification.record.kind !== 'person') {
      throw notVerified('The verification is not of a person (BVN, NIN, vNIN or BVNUSSD).');
    }
    if (claim.identityType !== 'vID' && claim.identityType !== verification.type) {
      throw notVerified(
        `The verification is a ${verification.type} check, not ${claim.identityType}.`,
      );
    }
    if (claim.identityNumber !== undefined && claim.identityNumber !== verification.number) {
      throw notVerified('The verification is for a different identity number.');
    }
    if (verification.status === 'Pending' && otp !== undefined) {
      // Its own transaction: wrong OTPs count even though this request then fails.
      verification = await identity.validate(principal, {
        identityId: verification.id,
        type: verification.type,
        otp,
      });
    }
    if (verification.status !== 'Verified') {
      throw notVerified('The verification is not validated yet: validate it with the OTP.');
    }
    return verification;
  }

  async function ownVerification(principal: Principal, identityId: string | undefined) {
    if (identityId === undefined) {
      throw new AppError(
        'VALIDATION_ERROR',
        'identityId is required: initiate a verification first.',
        {
          details: [{ field: 'identityId', message: 'is required' }],
        },
      );
    }
    const verification = await identity.find(principal.clientId, identityId);
    if (verification === undefined) {
      throw notVerified('Unable to locate the verification.');
    }
    return verification;
  }

  return { individual, corporate };
}

function notVerified(message: string): AppError {
  return new AppError('IDENTITY_NOT_VERIFIED', message);
}

function fullName(person: Pick<PersonRecord, 'firstName' | 'middleName' | 'lastName'>): string {
  return [person.firstName, person.middleName, person.lastName]
    .filter((part) => part !== null && part !== '')
    .join(' ')
    .toUpperCase();
}

/** A director is proven by the BVN the registry holds, or else by first and last name. */
function isSameDirector(director: Director, verification: Verification): boolean {
  const person = verification.record as PersonRecord;
  if (director.bvn !== null && (verification.type === 'BVN' || verification.type === 'BVNUSSD')) {
    return director.bvn === verification.number;
  }
  return (
    normalise(director.firstName) === normalise(person.firstName) &&
    normalise(director.lastName) === normalise(person.lastName)
  );
}

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toUpperCase();
}

function sameRegistration(given: string, verified: string): boolean {
  const digits = (value: string) => value.replace(/^(RC|BN|IT)/i, '').replace(/^0+/, '');
  return digits(given) === digits(verified);
}
