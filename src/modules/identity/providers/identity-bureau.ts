/**
 * An identity bureau: who answers "does this BVN/NIN/RC number exist, and whose is it?" and
 * delivers one-time passwords to the identity's registered phone. In sandbox, a deterministic
 * simulator; in production, an adapter to the bureau the bank contracts with. Every method
 * answers; none throws for a bureau-side problem (a timeout or an unreadable answer is
 * `unavailable`), so callers can decide what to charge.
 */
export interface IdentityBureau {
  lookup(request: IdentityLookupRequest): Promise<IdentityLookupOutcome>;
  /** Sends the OTP to the phone on record (BVN/NIN); `false` when it could not be sent. */
  deliverOtp(request: OtpDelivery): Promise<boolean>;
}

export const IDENTITY_TYPES = ['BVN', 'NIN', 'vNIN', 'BVNUSSD', 'CAC', 'CREDITCHECK'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];

export const CREDIT_BUREAUS = ['creditRegistry', 'firstCentral'] as const;
export type CreditBureau = (typeof CREDIT_BUREAUS)[number];

export interface IdentityLookupRequest {
  readonly type: IdentityType;
  /** BVN or NIN (11 digits), vNIN (16 characters), RC/BN number for CAC, BVN for CREDITCHECK. */
  readonly number: string;
  /** vNIN: the verifying enterprise's id the customer generated the virtual NIN for. */
  readonly verifierId?: string;
  /** CREDITCHECK: which credit bureau to ask. */
  readonly provider?: CreditBureau;
  /** BVNUSSD: the code the customer got by dialling the USSD short code. */
  readonly otp?: string;
}

export type IdentityLookupOutcome =
  | { readonly kind: 'found'; readonly record: IdentityRecord }
  /** Nobody has this number (or it is malformed). Definitive; not charged. */
  | { readonly kind: 'notFound'; readonly message: string }
  /** The bureau has the number but its data contradicts the request. Definitive; not charged. */
  | { readonly kind: 'mismatch'; readonly message: string }
  /** No usable answer (timeout, bureau down): try again later. Not charged. */
  | { readonly kind: 'unavailable'; readonly message: string };

export type IdentityRecord = PersonRecord | CompanyRecord | CreditReport;

export interface PersonRecord {
  readonly kind: 'person';
  readonly firstName: string;
  readonly middleName: string | null;
  readonly lastName: string;
  /** YYYY-MM-DD */
  readonly dateOfBirth: string;
  readonly gender: 'Male' | 'Female';
  /** E.164, e.g. +2348031234567: where the OTP goes. */
  readonly phoneNumber: string;
  readonly email: string | null;
  readonly nationality: string;
  readonly stateOfOrigin: string | null;
  readonly address: string | null;
}

export interface CompanyRecord {
  readonly kind: 'company';
  readonly companyName: string;
  /** As given: RC1234567 (company), BN1234567 (business name), IT1234567 (trustees). */
  readonly registrationNumber: string;
  readonly companyType: 'RC' | 'BN' | 'IT';
  /** YYYY-MM-DD */
  readonly registrationDate: string;
  readonly address: string;
  readonly email: string | null;
  readonly status: 'ACTIVE' | 'INACTIVE';
  readonly directors: readonly Director[];
}

export interface Director {
  readonly firstName: string;
  readonly middleName: string | null;
  readonly lastName: string;
  readonly role: 'Director' | 'Secretary' | 'Proprietor' | 'Trustee';
  /** The director's BVN when the registry has it; lets a validated BVN prove a directorship. */
  readonly bvn: string | null;
}

export interface CreditReport {
  readonly kind: 'creditReport';
  readonly provider: CreditBureau;
  readonly subjectName: string;
  /** 300-850 */
  readonly score: number;
  readonly rating: 'Excellent' | 'Good' | 'Fair' | 'Poor';
  readonly totalFacilities: number;
  readonly performingFacilities: number;
  readonly nonPerformingFacilities: number;
  /** Sum of outstanding balances, kobo. */
  readonly outstandingBalanceKobo: bigint;
  /** YYYY-MM-DD of the report. */
  readonly reportDate: string;
}

export interface OtpDelivery {
  readonly phoneNumber: string;
  readonly otp: string;
  /** Our verification id, so the bureau's delivery logs can be matched to it. */
  readonly reference: string;
}
