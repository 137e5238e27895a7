import { koboToNaira } from '../../shared/money.ts';
import type { IdentityRecord } from './providers/identity-bureau.ts';
import type { Verification, VerificationWithAccounts } from './verification.ts';

/**
 * The verification as the API shows it. The identity number and phone are masked: the client
 * gave the number and needs only to recognise it. The identity data shows once it is verified.
 */
export function verificationView(verification: Verification) {
  const verified = verification.status === 'Verified';
  const pending = verification.status === 'Pending';
  return {
    _id: verification.id,
    client: verification.clientId,
    type: verification.type,
    number: maskAllButLast4(verification.number),
    provider: verification.provider,
    debitAccountNumber: verification.debitAccountNumber,
    fee: koboToNaira(verification.feeKobo),
    vat: koboToNaira(verification.vatKobo),
    status: verification.status,
    isVerified: verified,
    otpSentTo:
      pending && verification.record.kind === 'person'
        ? maskPhone(verification.record.phoneNumber)
        : null,
    otpExpiresAt: pending ? (verification.otpExpiresAt?.toISOString() ?? null) : null,
    data: verified ? recordView(verification.record) : null,
    createdAt: verification.createdAt.toISOString(),
    updatedAt: verification.updatedAt.toISOString(),
    verifiedAt: verification.verifiedAt?.toISOString() ?? null,
  };
}

/**
 * The answer to an initiation (and to a resent OTP): `status` is `SUCCESS` once the bureau found
 * the identity and any OTP went out, as integrations of the published API require;
 * `verificationStatus` is the verification's own state (Pending until the OTP is validated,
 * Verified for checks that need none). docs/api.md, "Identity".
 */
export function initiationView(verification: Verification) {
  return {
    ...verificationView(verification),
    status: 'SUCCESS' as const,
    verificationStatus: verification.status,
  };
}

/**
 * A verification as an operator sees it (GET /admin/clients/:id/identity-verifications): the
 * number masked to its last four characters, the verified name and the accounts opened with
 * it. Never the full number, the OTP, the phone or the identity's other data.
 */
export function verificationOperatorView({ verification, accounts }: VerificationWithAccounts) {
  const verified = verification.status === 'Verified';
  return {
    _id: verification.id,
    client: verification.clientId,
    type: verification.type,
    number: maskForOperator(verification.number),
    provider: verification.provider,
    status: verification.status,
    isVerified: verified,
    name: verified ? verifiedName(verification.record) : null,
    debitAccountNumber: verification.debitAccountNumber,
    accounts: accounts.map((account) => ({
      _id: account.accountId,
      accountNumber: account.accountNumber,
      as: account.as,
    })),
    createdAt: verification.createdAt.toISOString(),
    updatedAt: verification.updatedAt.toISOString(),
    verifiedAt: verification.verifiedAt?.toISOString() ?? null,
  };
}

/** The name the bureau verified: the person's, the company's, or the credit report's subject. */
function verifiedName(record: IdentityRecord): string {
  switch (record.kind) {
    case 'person':
      return [record.firstName, record.middleName, record.lastName]
        .filter((part) => part !== null && part !== '')
        .join(' ');
    case 'company':
      return record.companyName;
    case 'creditReport':
      return record.subjectName;
  }
}

/** The last four characters only; a number of four or fewer shows none of them. */
function maskForOperator(value: string): string {
  return value.length <= 4 ? '*'.repeat(value.length) : maskAllButLast4(value);
}

/** What a client needs to open an account and know its customer: not the full phone number. */
function recordView(record: IdentityRecord): Record<string, unknown> {
  switch (record.kind) {
    case 'person':
      return {
        firstName: record.firstName,
        middleName: record.middleName,
        lastName: record.lastName,
        dateOfBirth: record.dateOfBirth,
        gender: record.gender,
        phoneNumber: maskPhone(record.phoneNumber),
        email: record.email,
        nationality: record.nationality,
        stateOfOrigin: record.stateOfOrigin,
      };
    case 'company':
      return {
        companyName: record.companyName,
        registrationNumber: record.registrationNumber,
        companyType: record.companyType,
        registrationDate: record.registrationDate,
        address: record.address,
        email: record.email,
        status: record.status,
        directors: record.directors.map(({ bvn: _bvn, ...director }) => director),
      };
    case 'creditReport':
      return {
        provider: record.provider,
        subjectName: record.subjectName,
        score: record.score,
        rating: record.rating,
        totalFacilities: record.totalFacilities,
        performingFacilities: record.performingFacilities,
        nonPerformingFacilities: record.nonPerformingFacilities,
        outstandingBalance: koboToNaira(record.outstandingBalanceKobo),
        reportDate: record.reportDate,
      };
  }
}

export function maskAllButLast4(value: string): string {
  return value.length <= 4 ? value : `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}

/** +2348031234567 → +234803****567 */
export function maskPhone(phone: string): string {
  return phone.length <= 7
    ? phone
    : `${phone.slice(0, 7)}${'*'.repeat(phone.length - 10)}${phone.slice(-3)}`;
}
