import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, systemClock } from '../../../shared/clock.ts';
import { invariant } from '../../../shared/invariant.ts';
import {
  type CompanyRecord,
  CREDIT_BUREAUS,
  type CreditBureau,
  type CreditReport,
  type Director,
  IDENTITY_TYPES,
  type IdentityBureau,
  type IdentityLookupOutcome,
  type IdentityLookupRequest,
  type IdentityRecord,
  type IdentityType,
  type OtpDelivery,
  type PersonRecord,
} from './identity-bureau.ts';

/**
 * A deterministic stand-in for the identity and credit bureaus in sandbox and tests. Every magic
 * value and derivation rule below is documented in docs/sandbox-identity.md; keep the two in step.
 */

export interface IdentityBureauSimulatorOptions {
  /** Delay before every answer, to exercise callers' waiting; 0 (default) to MAX_LATENCY_MS. */
  readonly latencyMs?: number;
  /** Dates credit reports and OTP deliveries; the system clock unless given. */
  readonly clock?: Clock;
}

/** Bounded so a misconfigured sandbox cannot hang requests for minutes (as the NIP simulator). */
export const MAX_BUREAU_LATENCY_MS = 10_000;

/** Deliveries remembered for lastOtpSentTo, oldest forgotten first, so memory stays bounded. */
export const MAX_REMEMBERED_OTPS = 10_000;

/** One OTP the simulated SMS gateway sent. */
export interface SentOtp extends OtpDelivery {
  readonly sentAt: Date;
}

export interface IdentityBureauSimulator extends IdentityBureau {
  /** Test/operator introspection, not part of IdentityBureau: the last OTP sent to this phone. */
  lastOtpSentTo(phoneNumber: string): Promise<SentOtp | undefined>;
}

export function isIdentityBureauSimulator(
  bureau: IdentityBureau,
): bureau is IdentityBureauSimulator {
  return 'lastOtpSentTo' in bureau;
}

export function createIdentityBureauSimulator(
  options: IdentityBureauSimulatorOptions = {},
): IdentityBureauSimulator {
  const latencyMs = checkedLatency(options.latencyMs ?? 0);
  const clock = options.clock ?? systemClock;
  const sent = new Map<string, SentOtp>();

  // The delivery happens when the request "arrives"; only the answer is late.
  async function answer<T>(value: T): Promise<T> {
    if (latencyMs > 0) {
      await sleep(latencyMs);
    }
    return value;
  }

  function remember(delivery: SentOtp): void {
    sent.delete(delivery.phoneNumber);
    sent.set(delivery.phoneNumber, delivery);
    if (sent.size > MAX_REMEMBERED_OTPS) {
      const oldest = sent.keys().next().value;
      if (oldest !== undefined) {
        sent.delete(oldest);
      }
    }
  }

  return {
    // async, so even a malformed request from a caller's bug rejects instead of throwing.
    lookup: async (request) => answer(simulateLookup(request, reportDateOf(clock))),
    async deliverOtp(request) {
      const delivered = canDeliverOtp(request);
      if (delivered) {
        remember({
          phoneNumber: request.phoneNumber,
          otp: request.otp,
          reference: request.reference,
          sentAt: clock.now(),
        });
      }
      return answer(delivered);
    },
    lastOtpSentTo: async (phoneNumber) => sent.get(phoneNumber),
  };
}

function checkedLatency(latencyMs: number): number {
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_BUREAU_LATENCY_MS) {
    throw new RangeError(`latencyMs must be an integer from 0 to ${MAX_BUREAU_LATENCY_MS}`);
  }
  return latencyMs;
}

/** The UTC calendar date of the clock's now, YYYY-MM-DD. */
function reportDateOf(clock: Clock): string {
  return clock.now().toISOString().slice(0, 10);
}

const NIGERIAN_PHONE = /^\+234\d{10}$/;
const OTP_CODE = /^\d{4,8}$/;

/** A Nigerian E.164 number not ending 9999 (the SMS gateway is down for those), a 4-8 digit OTP. */
export function canDeliverOtp(request: OtpDelivery): boolean {
  return (
    typeof request.phoneNumber === 'string' &&
    NIGERIAN_PHONE.test(request.phoneNumber) &&
    !request.phoneNumber.endsWith('9999') &&
    typeof request.otp === 'string' &&
    OTP_CODE.test(request.otp)
  );
}

// ---------------------------------------------------------------------------------------------
// Lookups

const ELEVEN_DIGITS = /^\d{11}$/;
const VNIN = /^[A-Za-z0-9]{16}$/;
const CAC_NUMBER = /^(RC|BN|IT)?(\d{5,8})$/i;
const USSD_OTP = /^\d{6}$/;
/** The one BVNUSSD code the simulated bureau never accepts (as the sandbox's test OTP 000000). */
export const REFUSED_USSD_OTP = '000000';

const TYPE_LABELS: Readonly<Record<IdentityType, string>> = {
  BVN: 'BVN',
  NIN: 'NIN',
  vNIN: 'vNIN',
  BVNUSSD: 'BVN',
  CAC: 'CAC registration',
  CREDITCHECK: 'credit',
};

const notFound = (message: string): IdentityLookupOutcome => ({ kind: 'notFound', message });
const mismatch = (message: string): IdentityLookupOutcome => ({ kind: 'mismatch', message });

/**
 * The simulated bureau's answer. The rules apply in this order, first match wins: an unknown
 * type or malformed number is notFound; a missing or wrong companion field (verifierId,
 * provider, USSD code) is a mismatch; then the number's last four characters: 9999 unavailable,
 * 0000 notFound, 8888 mismatch; anything else is found, with a record derived from the number.
 */
export function simulateLookup(
  request: IdentityLookupRequest,
  reportDate: string,
): IdentityLookupOutcome {
  const { type, number } = request;
  if (!(IDENTITY_TYPES as readonly unknown[]).includes(type)) {
    return notFound('Unsupported identity type.');
  }
  const malformed =
    typeof number === 'string' ? malformedNumber(type, number) : 'A number is required.';
  if (malformed !== undefined) {
    return notFound(malformed);
  }
  const refusal = companionRefusal(request);
  if (refusal !== undefined) {
    return mismatch(refusal);
  }
  if (number.endsWith('9999')) {
    return {
      kind: 'unavailable',
      message: 'The identity bureau is not available. Try again later.',
    };
  }
  if (number.endsWith('0000')) {
    return notFound(`No ${TYPE_LABELS[type]} record was found for this number.`);
  }
  if (number.endsWith('8888')) {
    return mismatch('The data on record does not match the request (name mismatch).');
  }
  return { kind: 'found', record: foundRecord(request, reportDate) };
}

function malformedNumber(type: IdentityType, number: string): string | undefined {
  switch (type) {
    case 'BVN':
    case 'BVNUSSD':
    case 'CREDITCHECK':
      return ELEVEN_DIGITS.test(number) ? undefined : 'A BVN has 11 digits.';
    case 'NIN':
      return ELEVEN_DIGITS.test(number) ? undefined : 'A NIN has 11 digits.';
    case 'vNIN':
      return VNIN.test(number) ? undefined : 'A vNIN has 16 letters or digits.';
    case 'CAC':
      return CAC_NUMBER.test(number)
        ? undefined
        : 'A CAC number is RC, BN or IT followed by 5 to 8 digits.';
  }
}

function companionRefusal(request: IdentityLookupRequest): string | undefined {
  switch (request.type) {
    case 'vNIN':
      return isNonBlank(request.verifierId)
        ? undefined
        : 'A vNIN is only valid with the verifierId it was generated for.';
    case 'BVNUSSD':
      return typeof request.otp === 'string' &&
        USSD_OTP.test(request.otp) &&
        request.otp !== REFUSED_USSD_OTP
        ? undefined
        : 'The USSD code does not match this BVN.';
    case 'CREDITCHECK':
      return isCreditBureau(request.provider)
        ? undefined
        : 'provider must be creditRegistry or firstCentral.';
    default:
      return undefined;
  }
}

function isNonBlank(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isCreditBureau(value: unknown): value is CreditBureau {
  return (CREDIT_BUREAUS as readonly unknown[]).includes(value);
}

function foundRecord(request: IdentityLookupRequest, reportDate: string): IdentityRecord {
  const { type, number } = request;
  switch (type) {
    case 'BVN':
    case 'NIN':
    case 'BVNUSSD':
      return simulatedPerson(number);
    case 'vNIN':
      return simulatedPerson(vninDigits(number).slice(-11));
    case 'CAC':
      return simulatedCompany(number);
    case 'CREDITCHECK':
      invariant(isCreditBureau(request.provider), 'the provider was checked');
      return simulatedCreditReport(number, request.provider, reportDate);
  }
}

// ---------------------------------------------------------------------------------------------
// People (BVN, NIN, vNIN, BVNUSSD)

const MALE_FIRST_NAMES: readonly string[] =
  'CHIDI TUNDE EMEKA IBRAHIM SEGUN YUSUF KELECHI MUSA OBINNA BABAJIDE SANI ADEWALE'.split(' ');

const FEMALE_FIRST_NAMES: readonly string[] =
  'AMAKA NGOZI FUNMILAYO ZAINAB BLESSING ADAEZE AISHA YETUNDE CHIOMA HAUWA IFEOMA HALIMA'.split(
    ' ',
  );

/** Indexed by a digit 1-9; the digit 0 means no middle name. */
const MIDDLE_NAMES: readonly string[] =
  'OLUWASEUN CHINONSO ADEBOLA TEMITOPE ONYEKACHI AYOMIDE KAMSI OLAMIDE CHIDERA'.split(' ');

const LAST_NAMES: readonly string[] =
  'OKAFOR ADEYEMI BELLO EZE OKONKWO ABUBAKAR ADEBAYO NWOSU OGUNLEYE MUSA OBI BALOGUN'.split(' ');

/** The 36 states and the FCT, alphabetically. */
export const NIGERIAN_STATES: readonly string[] = [
  'Abia',
  'Adamawa',
  'Akwa Ibom',
  'Anambra',
  'Bauchi',
  'Bayelsa',
  'Benue',
  'Borno',
  'Cross River',
  'Delta',
  'Ebonyi',
  'Edo',
  'Ekiti',
  'Enugu',
  'FCT',
  'Gombe',
  'Imo',
  'Jigawa',
  'Kaduna',
  'Kano',
  'Katsina',
  'Kebbi',
  'Kogi',
  'Kwara',
  'Lagos',
  'Nasarawa',
  'Niger',
  'Ogun',
  'Ondo',
  'Osun',
  'Oyo',
  'Plateau',
  'Rivers',
  'Sokoto',
  'Taraba',
  'Yobe',
  'Zamfara',
];

const STREETS: readonly string[] = [
  'Adeola Odeku Street',
  'Awolowo Road',
  'Ahmadu Bello Way',
  'Herbert Macaulay Way',
  'Ogui Road',
  'Aba Road',
  'Allen Avenue',
  'Zik Avenue',
  'Murtala Mohammed Way',
  'Broad Street',
  'Independence Avenue',
  'Bode Thomas Street',
];

const CITIES: readonly string[] = [
  'Lagos',
  'Abuja',
  'Port Harcourt',
  'Ibadan',
  'Kano',
  'Enugu',
  'Benin City',
  'Kaduna',
  'Abeokuta',
  'Owerri',
  'Jos',
  'Ilorin',
];

function pick(list: readonly string[], index: number): string {
  const value = list[index % list.length];
  invariant(value !== undefined, 'lists are indexed in range');
  return value;
}

/** The number formed by digits `from` to `to` (1-based, inclusive) of a digit string. */
function digits(number: string, from: number, to: number): number {
  return Number(number.slice(from - 1, to));
}

/** YYYY-MM-DD of a year, a month 1-12 and a day 1-28 (so always a real date). */
function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The person behind an 11-digit BVN or NIN (digits counted from 1, left to right):
 * - gender: the last digit odd is Male, even is Female;
 * - first name: digits 1-5 mod 12 in that gender's list; last name: digits 7-11 mod 12;
 * - middle name: none when digit 6 is 0, else the digit's entry (1-9) in the middle-name list;
 * - date of birth: year 1960 + (digits 3-4 mod 45), month (digits 5-6 mod 12) + 1,
 *   day (digits 7-8 mod 28) + 1;
 * - phone: +234803 and digits 1-7; email: none when digit 8 is 0, else first.last@example.com;
 * - state of origin: digits 9-10 mod 37 in the alphabetical list of states (FCT included);
 * - address: house (digits 8-9 mod 98) + 1, a street by digits 6-7 mod 12, a city by digits 4-5.
 */
export function simulatedPerson(number: string): PersonRecord {
  if (!ELEVEN_DIGITS.test(number)) {
    throw new RangeError(`a simulated person needs 11 digits, got "${number}"`);
  }
  const gender = digits(number, 11, 11) % 2 === 1 ? 'Male' : 'Female';
  const firstName = pick(
    gender === 'Male' ? MALE_FIRST_NAMES : FEMALE_FIRST_NAMES,
    digits(number, 1, 5),
  );
  const middleDigit = digits(number, 6, 6);
  const lastName = pick(LAST_NAMES, digits(number, 7, 11));
  return {
    kind: 'person',
    firstName,
    middleName: middleDigit === 0 ? null : pick(MIDDLE_NAMES, middleDigit - 1),
    lastName,
    dateOfBirth: isoDate(
      1960 + (digits(number, 3, 4) % 45),
      (digits(number, 5, 6) % 12) + 1,
      (digits(number, 7, 8) % 28) + 1,
    ),
    gender,
    phoneNumber: `+234803${number.slice(0, 7)}`,
    email: digits(number, 8, 8) === 0 ? null : `${firstName}.${lastName}@example.com`.toLowerCase(),
    nationality: 'Nigeria',
    stateOfOrigin: pick(NIGERIAN_STATES, digits(number, 9, 10)),
    address: `${(digits(number, 8, 9) % 98) + 1} ${pick(STREETS, digits(number, 6, 7))}, ${pick(
      CITIES,
      digits(number, 4, 5),
    )}`,
  };
}

/**
 * A vNIN's characters as digits: a digit stays itself, a letter (either case) becomes its
 * position in the alphabet from 0, mod 10 (A, K, U are 0; B, L, V are 1; ... J and T are 9).
 * The person behind a vNIN is simulatedPerson of the last 11 of these digits.
 */
export function vninDigits(vnin: string): string {
  if (!VNIN.test(vnin)) {
    throw new RangeError(`a vNIN has 16 letters or digits, got "${vnin}"`);
  }
  return [...vnin.toUpperCase()]
    .map((character) =>
      /\d/.test(character) ? character : String((character.charCodeAt(0) - 65) % 10),
    )
    .join('');
}

// ---------------------------------------------------------------------------------------------
// Companies (CAC)

const COMPANY_WORDS: readonly string[] =
  'ADUNNI SAHEL GREENFIELD OBIOMA SUNRISE KOLA SAVANNAH HARMATTAN LAGOON CROWN IROKO OASIS'.split(
    ' ',
  );

const BUSINESS_LINES: readonly string[] = [
  'FOODS',
  'LOGISTICS',
  'TECHNOLOGIES',
  'AGRO ALLIED',
  'PROPERTIES',
  'ENERGY',
  'TRADING',
  'PHARMACY',
  'TEXTILES',
  'CONSTRUCTION',
  'FARMS',
  'MOTORS',
];

const DIRECTOR_ROLES: Readonly<Record<CompanyRecord['companyType'], Director['role']>> = {
  RC: 'Director',
  BN: 'Proprietor',
  IT: 'Trustee',
};

/** 'RC', 'BN' or 'IT' (bare digits are RC), the digits as given, and padded to 8 with zeros. */
function parseCacNumber(registrationNumber: string): {
  companyType: CompanyRecord['companyType'];
  given: string;
  padded: string;
} {
  const match = CAC_NUMBER.exec(registrationNumber);
  if (match === null) {
    throw new RangeError(
      `a CAC number is RC, BN or IT and 5 to 8 digits, got "${registrationNumber}"`,
    );
  }
  const [, prefix = 'RC', number = ''] = match;
  // The pattern admits no other prefix.
  const companyType = prefix.toUpperCase() as CompanyRecord['companyType'];
  return { companyType, given: number, padded: number.padStart(8, '0') };
}

/**
 * The BVNs of a company's directors (its proprietors for BN, trustees for IT). With the
 * registration digits padded to 8 (`p`), there are (last digit mod 3) + 1 of them, and the
 * i-th (from 1) is `2` + i + p + i: RC1234567 has 21012345671 and 22012345672. The prefix does
 * not change them. Each is a BVN the simulator finds, with the director's names, so validating
 * it proves the directorship.
 */
export function simulatedDirectorBvns(registrationNumber: string): readonly string[] {
  const { padded } = parseCacNumber(registrationNumber);
  const count = (Number(padded.slice(-1)) % 3) + 1;
  return Array.from({ length: count }, (_, index) => `2${index + 1}${padded}${index + 1}`);
}

/**
 * The company behind an RC, BN or IT number (bare digits are RC); `p` is its digits padded to 8:
 * - name: a word by p's digits 1-4 mod 12, a line of business by digits 5-8 mod 12, then
 *   LIMITED (RC) or ENTERPRISES (BN); IT is INCORPORATED TRUSTEES OF (word) FOUNDATION;
 * - registration date: year 1990 + (digits 5-6 mod 35), month (digits 7-8 mod 12) + 1,
 *   day (digits 6-8 mod 28) + 1;
 * - address: house (digits 7-8 mod 98) + 1, a street by digits 3-6, a city by all of p (mod 12);
 * - email: none for BN, else info. + word + line (IT: word only) @example.com; status ACTIVE;
 * - directors: one per simulatedDirectorBvns, named as simulatedPerson of their BVN.
 */
export function simulatedCompany(registrationNumber: string): CompanyRecord {
  const { companyType, given, padded } = parseCacNumber(registrationNumber);
  const word = pick(COMPANY_WORDS, digits(padded, 1, 4));
  const line = pick(BUSINESS_LINES, digits(padded, 5, 8));
  const companyName =
    companyType === 'IT'
      ? `INCORPORATED TRUSTEES OF ${word} FOUNDATION`
      : `${word} ${line} ${companyType === 'RC' ? 'LIMITED' : 'ENTERPRISES'}`;
  const role = DIRECTOR_ROLES[companyType];
  return {
    kind: 'company',
    companyName,
    registrationNumber: `${companyType}${given}`,
    companyType,
    registrationDate: isoDate(
      1990 + (digits(padded, 5, 6) % 35),
      (digits(padded, 7, 8) % 12) + 1,
      (digits(padded, 6, 8) % 28) + 1,
    ),
    address: `${(digits(padded, 7, 8) % 98) + 1} ${pick(STREETS, digits(padded, 3, 6))}, ${pick(
      CITIES,
      Number(padded),
    )}`,
    email: companyEmail(companyType, word, line),
    status: 'ACTIVE',
    directors: simulatedDirectorBvns(registrationNumber).map((bvn): Director => {
      const person = simulatedPerson(bvn);
      return {
        firstName: person.firstName,
        middleName: person.middleName,
        lastName: person.lastName,
        role,
        bvn,
      };
    }),
  };
}

/** None for a business name; else info. and the name's word and line (IT: the word only). */
function companyEmail(
  companyType: CompanyRecord['companyType'],
  word: string,
  line: string,
): string | null {
  if (companyType === 'BN') {
    return null;
  }
  const name = companyType === 'IT' ? word : `${word}${line}`;
  return `info.${name.replace(/\W/g, '').toLowerCase()}@example.com`;
}

// ---------------------------------------------------------------------------------------------
// Credit reports (CREDITCHECK)

/** Excellent 750-850, Good 650-749, Fair 550-649, Poor 300-549. */
export function creditRating(score: number): CreditReport['rating'] {
  return score >= 750 ? 'Excellent' : score >= 650 ? 'Good' : score >= 550 ? 'Fair' : 'Poor';
}

/**
 * The credit report for an 11-digit BVN (digits from 1); both providers report the same data:
 * - subject: the BVN's simulatedPerson, first, middle and last names;
 * - score: 300 + (digits 9-11 mod 551), so 300 to 850; rating by creditRating;
 * - facilities: digit 8 mod 6 in total; non-performing: none when Good or Excellent, at most 1
 *   when Fair, half (rounded up) when Poor; the rest performing;
 * - outstanding balance: total facilities x digits 4-7 x ₦100, in kobo;
 * - report date: the day asked (UTC, by the simulator's clock).
 */
export function simulatedCreditReport(
  bvn: string,
  provider: CreditBureau,
  reportDate: string,
): CreditReport {
  const person = simulatedPerson(bvn);
  const score = 300 + (digits(bvn, 9, 11) % 551);
  const rating = creditRating(score);
  const totalFacilities = digits(bvn, 8, 8) % 6;
  const nonPerformingFacilities =
    rating === 'Poor'
      ? Math.ceil(totalFacilities / 2)
      : rating === 'Fair'
        ? Math.min(totalFacilities, 1)
        : 0;
  return {
    kind: 'creditReport',
    provider,
    subjectName: [person.firstName, person.middleName, person.lastName]
      .filter((name) => name !== null)
      .join(' '),
    score,
    rating,
    totalFacilities,
    performingFacilities: totalFacilities - nonPerformingFacilities,
    nonPerformingFacilities,
    outstandingBalanceKobo: BigInt(totalFacilities) * BigInt(digits(bvn, 4, 7)) * 10_000n,
    reportDate,
  };
}
