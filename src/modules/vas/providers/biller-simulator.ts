import { setTimeout as sleep } from 'node:timers/promises';
import { sha256Hex } from '../../../shared/hashing.ts';
import { invariant } from '../../../shared/invariant.ts';
import type { Kobo } from '../../../shared/money.ts';
import {
  type Biller,
  type BillerPurchaseOutcome,
  type BillerPurchaseRequest,
  type BillerVerifyOutcome,
  type BillerVerifyRequest,
  type CardCustomer,
  type MeterCustomer,
  VAS_SERVICES,
  type VasService,
} from './biller.ts';

/**
 * A deterministic stand-in for a VAS aggregator in sandbox and tests. It is stateless: every
 * answer is a pure function of the request, so a restarted server's status queries get the
 * answers its purchases had, and two simulators always agree. Docs and tests quote the magic
 * endings (BILLER_MAGIC), messages (BILLER_MESSAGES) and derivation rules below; keep them in
 * step.
 */

export interface BillerSimulatorOptions {
  /** Delay before every answer, to exercise callers' waiting; 0 (default) to MAX_BILLER_LATENCY_MS. */
  readonly latencyMs?: number;
}

/** Bounded so a misconfigured sandbox cannot hang requests for minutes (as the bureau's). */
export const MAX_BILLER_LATENCY_MS = 10_000;

/** The vend limits every simulated meter has: ₦500 to ₦1,000,000, as the seeded catalogue. */
export const SIMULATED_MIN_VEND_KOBO: Kobo = 50_000n;
export const SIMULATED_MAX_VEND_KOBO: Kobo = 100_000_000n;

/** What a beneficiary whose last four digits are magic is answered. */
export interface BillerMagic {
  /** The services whose beneficiaries the ending is magic for; any other is sold as usual. */
  readonly services: readonly VasService[];
  /** Verification of the card or meter (CABLETV, UTILITY only). */
  readonly verify: BillerVerifyOutcome['kind'];
  readonly purchase: BillerPurchaseOutcome['kind'];
  readonly queryStatus: BillerPurchaseOutcome['kind'];
}

const CARDS_AND_METERS: readonly VasService[] = ['CABLETV', 'UTILITY'];

/**
 * The magic endings of a beneficiary (the phone for AIRTIME and DATA, the smart card for
 * CABLETV, the meter for UTILITY). Any other ending verifies as found and is sold: purchase and
 * status query both `successful`. To list them, sort by ending: JavaScript enumerates the
 * integer-like keys (1111) before the others (0000, 0404).
 */
export const BILLER_MAGIC = {
  /** The biller declines the sale outright. */
  '0000': { services: VAS_SERVICES, verify: 'found', purchase: 'failed', queryStatus: 'failed' },
  /** Accepted, delivered later. */
  '1111': {
    services: VAS_SERVICES,
    verify: 'found',
    purchase: 'pending',
    queryStatus: 'successful',
  },
  /** Accepted, then declined. */
  '2222': { services: VAS_SERVICES, verify: 'found', purchase: 'pending', queryStatus: 'failed' },
  /** The biller times out, but had sold: only the status query can tell. */
  '3333': {
    services: VAS_SERVICES,
    verify: 'found',
    purchase: 'unavailable',
    queryStatus: 'successful',
  },
  /** The biller times out, and had not sold. */
  '4444': {
    services: VAS_SERVICES,
    verify: 'found',
    purchase: 'unavailable',
    queryStatus: 'failed',
  },
  /** No such card or meter (a phone ending 0404 is sold as usual). */
  '0404': {
    services: CARDS_AND_METERS,
    verify: 'notFound',
    purchase: 'failed',
    queryStatus: 'failed',
  },
  /** The biller's lookup is down; a purchase without verification is still sold. */
  '5030': {
    services: CARDS_AND_METERS,
    verify: 'unavailable',
    purchase: 'successful',
    queryStatus: 'successful',
  },
} as const satisfies Readonly<Record<string, BillerMagic>>;

const ORDINARY: BillerMagic = {
  services: VAS_SERVICES,
  verify: 'found',
  purchase: 'successful',
  queryStatus: 'successful',
};

const MAGIC_BY_ENDING: ReadonlyMap<string, BillerMagic> = new Map(Object.entries(BILLER_MAGIC));

/** The messages of the simulator's non-successful answers, for docs and tests to quote. */
export const BILLER_MESSAGES = {
  declined: 'The biller declined the purchase',
  unknownCardOrMeter: 'Unknown meter or card',
  pending: 'The biller has accepted the purchase but not confirmed it yet',
  unavailable: 'The biller did not answer in time',
  verifyUnavailable: 'The biller cannot look up meters and cards at the moment',
  notVerifiable: 'Only smart cards (CABLETV) and meters (UTILITY) can be verified',
  unsupportedService: 'Unsupported service',
  noCategory: 'A category identifier is required',
  badReference: 'A reference is 32 lower-case hex characters',
  badAmount: 'The amount must be a positive number of kobo',
  outsideVendLimits: 'The amount must be from ₦500 to ₦1,000,000 for this meter',
  badPhone: 'A phone number is 11 digits starting 0, or 13 digits starting 234',
  badCard: 'A smart card number is 10 or 11 digits',
  badMeter: 'A meter number is 11 to 13 digits',
} as const;

/** Simulators this module made: a plain Biller cannot pass for one. */
const simulators = new WeakSet<Biller>();

export function isBillerSimulator(biller: Biller): boolean {
  return simulators.has(biller);
}

export function createBillerSimulator(options: BillerSimulatorOptions = {}): Biller {
  const latencyMs = checkedLatency(options.latencyMs ?? 0);

  async function answer<T>(value: T): Promise<T> {
    if (latencyMs > 0) {
      await sleep(latencyMs);
    }
    return value;
  }

  // async, so even a malformed request from a caller's bug rejects instead of throwing.
  const biller: Biller = {
    verify: async (request) => answer(simulateVerify(request)),
    purchase: async (request) => answer(simulateSale(request, 'purchase')),
    queryStatus: async (request) => answer(simulateSale(request, 'queryStatus')),
  };
  simulators.add(biller);
  return biller;
}

function checkedLatency(latencyMs: number): number {
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_BILLER_LATENCY_MS) {
    throw new RangeError(`latencyMs must be an integer from 0 to ${MAX_BILLER_LATENCY_MS}`);
  }
  return latencyMs;
}

// ---------------------------------------------------------------------------------------------
// Requests

const PHONE = /^(?:0\d{10}|234\d{10})$/;
const SMART_CARD = /^\d{10,11}$/;
const METER = /^\d{11,13}$/;
const REFERENCE = /^[0-9a-f]{32}$/;

const BENEFICIARY_RULES: Readonly<Record<VasService, { pattern: RegExp; message: string }>> = {
  AIRTIME: { pattern: PHONE, message: BILLER_MESSAGES.badPhone },
  DATA: { pattern: PHONE, message: BILLER_MESSAGES.badPhone },
  CABLETV: { pattern: SMART_CARD, message: BILLER_MESSAGES.badCard },
  UTILITY: { pattern: METER, message: BILLER_MESSAGES.badMeter },
};

function isVasService(value: unknown): value is VasService {
  return (VAS_SERVICES as readonly unknown[]).includes(value);
}

function isNonBlank(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** Why a beneficiary (or entity number) is malformed for the service, if it is. */
function malformedBeneficiary(service: VasService, beneficiary: unknown): string | undefined {
  const rule = BENEFICIARY_RULES[service];
  return typeof beneficiary === 'string' && rule.pattern.test(beneficiary)
    ? undefined
    : rule.message;
}

/** The magic row for a well-formed beneficiary: its last four digits, if magic for the service. */
function magicFor(service: VasService, beneficiary: string): BillerMagic {
  const magic = MAGIC_BY_ENDING.get(beneficiary.slice(-4));
  return magic?.services.includes(service) ? magic : ORDINARY;
}

// ---------------------------------------------------------------------------------------------
// Verification

/**
 * The simulated biller's verification, first match wins: a service other than CABLETV or
 * UTILITY, a blank category or a malformed number is notFound; then the number's last four
 * digits: 5030 unavailable, 0404 notFound; anything else is found, with the customer derived
 * from the number (simulatedMeter, simulatedCard).
 */
export function simulateVerify(request: BillerVerifyRequest): BillerVerifyOutcome {
  const { service, categoryIdentifier, entityNumber } = request;
  if (service !== 'CABLETV' && service !== 'UTILITY') {
    return { kind: 'notFound', message: BILLER_MESSAGES.notVerifiable };
  }
  if (!isNonBlank(categoryIdentifier)) {
    return { kind: 'notFound', message: BILLER_MESSAGES.noCategory };
  }
  const malformed = malformedBeneficiary(service, entityNumber);
  if (malformed !== undefined) {
    return { kind: 'notFound', message: malformed };
  }
  switch (magicFor(service, entityNumber).verify) {
    case 'notFound':
      return { kind: 'notFound', message: BILLER_MESSAGES.unknownCardOrMeter };
    case 'unavailable':
      return { kind: 'unavailable', message: BILLER_MESSAGES.verifyUnavailable };
    case 'found':
      return {
        kind: 'found',
        customer:
          service === 'UTILITY'
            ? simulatedMeter(categoryIdentifier, entityNumber)
            : simulatedCard(entityNumber),
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Purchases and status queries

/**
 * The simulated biller's answer to a purchase or its status query, first match wins: an
 * unsupported service, a blank category, a reference that is not 32 lower-case hex, an amount
 * that is not positive, a malformed beneficiary or (UTILITY) an amount outside the vend limits
 * is failed, on both; then the beneficiary's last four digits, by BILLER_MAGIC; anything else is
 * successful. Being stateless, a status query judges the request it is given, exactly as the
 * purchase did.
 */
export function simulateSale(
  request: BillerPurchaseRequest,
  stage: 'purchase' | 'queryStatus',
): BillerPurchaseOutcome {
  const refusal = saleRefusal(request);
  if (refusal !== undefined) {
    return { kind: 'failed', message: refusal };
  }
  const magic = magicFor(request.service, request.beneficiary);
  switch (magic[stage]) {
    case 'successful':
      return delivered(request);
    case 'failed':
      // A card or meter the biller does not know cannot be sold to; anything else is declined.
      return {
        kind: 'failed',
        message:
          magic.verify === 'notFound'
            ? BILLER_MESSAGES.unknownCardOrMeter
            : BILLER_MESSAGES.declined,
      };
    case 'pending':
      return { kind: 'pending', message: BILLER_MESSAGES.pending };
    case 'unavailable':
      return { kind: 'unavailable', message: BILLER_MESSAGES.unavailable };
  }
}

function saleRefusal(request: BillerPurchaseRequest): string | undefined {
  const { service, categoryIdentifier, reference, amountKobo, beneficiary } = request;
  if (!isVasService(service)) {
    return BILLER_MESSAGES.unsupportedService;
  }
  if (!isNonBlank(categoryIdentifier)) {
    return BILLER_MESSAGES.noCategory;
  }
  if (typeof reference !== 'string' || !REFERENCE.test(reference)) {
    return BILLER_MESSAGES.badReference;
  }
  if (typeof amountKobo !== 'bigint' || amountKobo <= 0n) {
    return BILLER_MESSAGES.badAmount;
  }
  const malformed = malformedBeneficiary(service, beneficiary);
  if (malformed !== undefined) {
    return malformed;
  }
  // The limits verification announced: a real biller refuses to vend outside them.
  if (
    service === 'UTILITY' &&
    (amountKobo < SIMULATED_MIN_VEND_KOBO || amountKobo > SIMULATED_MAX_VEND_KOBO)
  ) {
    return BILLER_MESSAGES.outsideVendLimits;
  }
  return undefined;
}

/** Electricity carries its token, cable the card holder's name; airtime and data nothing. */
function delivered(request: BillerPurchaseRequest): BillerPurchaseOutcome {
  switch (request.service) {
    case 'UTILITY':
      return { kind: 'successful', token: simulatedToken(request.reference) };
    case 'CABLETV':
      return { kind: 'successful', receiverName: simulatedCard(request.beneficiary).name };
    default:
      return { kind: 'successful' };
  }
}

const TOKEN_MODULUS = 10n ** 20n;

/**
 * The electricity token of a sale: the SHA-256 of the reference (as a number) mod 10^20,
 * 20 digits with leading zeros, in five dash-separated groups of four. By the reference alone,
 * so a status query answers the token the purchase did.
 */
export function simulatedToken(reference: string): string {
  const digits = (BigInt(`0x${sha256Hex(reference)}`) % TOKEN_MODULUS).toString().padStart(20, '0');
  return (digits.match(/\d{4}/g) ?? []).join('-');
}

// ---------------------------------------------------------------------------------------------
// Customers

const FIRST_NAMES: readonly string[] =
  'BLESSING CHINEDU FATIMA NGOZI OLUWASEUN IBRAHIM AMAKA TUNDE HAUWA EMEKA FUNKE MUSA'.split(' ');

const LAST_NAMES: readonly string[] =
  'OKAFOR ADEYEMI BELLO EZE OKONKWO ABUBAKAR ADEBAYO NWOSU OGUNLEYE DANJUMA OBI BALOGUN'.split(' ');

const ADDRESSES: readonly string[] = [
  'Adetokunbo Ademola Crescent, Wuse II, Abuja',
  'Aminu Kano Crescent, Wuse II, Abuja',
  'Gana Street, Maitama, Abuja',
  'Ahmadu Bello Way, Garki, Abuja',
  'Yakubu Gowon Crescent, Asokoro, Abuja',
  'Kur Mohammed Avenue, Central Business District, Abuja',
  'Admiralty Way, Lekki Phase 1, Lagos',
  'Allen Avenue, Ikeja, Lagos',
  'Adeola Odeku Street, Victoria Island, Lagos',
  'Herbert Macaulay Way, Yaba, Lagos',
  'Bode Thomas Street, Surulere, Lagos',
  'Awolowo Road, Ikoyi, Lagos',
];

function pick(list: readonly string[], index: number): string {
  const value = list[index % list.length];
  invariant(value !== undefined, 'lists are indexed in range');
  return value;
}

/** The number formed by digits `from` to `to` (1-based, inclusive) of a digit string. */
function digits(number: string, from: number, to: number = number.length): number {
  return Number(number.slice(from - 1, to));
}

/** A first name by digits 1-5, a last name by digits 6 to the end. */
function simulatedName(number: string): string {
  return `${pick(FIRST_NAMES, digits(number, 1, 5))} ${pick(LAST_NAMES, digits(number, 6))}`;
}

/** The holder of a 10- or 11-digit smart card: simulatedName of the card number. */
export function simulatedCard(cardNumber: string): CardCustomer {
  if (!SMART_CARD.test(cardNumber)) {
    throw new RangeError(`a simulated smart card has 10 or 11 digits, got "${cardNumber}"`);
  }
  return { kind: 'card', name: simulatedName(cardNumber) };
}

/**
 * The meter behind an 11- to 13-digit number (digits counted from 1), at the category's disco:
 * - discoCode: the category identifier; vendType: POSTPAID when digit 1 is 0, else PREPAID;
 * - vend limits: SIMULATED_MIN_VEND_KOBO to SIMULATED_MAX_VEND_KOBO;
 * - outstanding: (digit 3 mod 5) x ₦1,000, so ₦0 to ₦4,000; debt repayment: a tenth of it;
 * - name: simulatedName of the number; address: house (digits 2-4 mod 98) + 1 and one of
 *   twelve Abuja and Lagos streets by digits 5 to the end;
 * - orderId: the first 32 hex digits, upper case, of the SHA-256 of `category:meter`.
 */
export function simulatedMeter(categoryIdentifier: string, meterNo: string): MeterCustomer {
  if (!METER.test(meterNo)) {
    throw new RangeError(`a simulated meter has 11 to 13 digits, got "${meterNo}"`);
  }
  const outstandingKobo = BigInt(digits(meterNo, 3, 3) % 5) * 100_000n;
  return {
    kind: 'meter',
    discoCode: categoryIdentifier,
    vendType: meterNo.startsWith('0') ? 'POSTPAID' : 'PREPAID',
    meterNo,
    minVendKobo: SIMULATED_MIN_VEND_KOBO,
    maxVendKobo: SIMULATED_MAX_VEND_KOBO,
    outstandingKobo,
    debtRepaymentKobo: outstandingKobo / 10n,
    name: simulatedName(meterNo),
    address: `${(digits(meterNo, 2, 4) % 98) + 1} ${pick(ADDRESSES, digits(meterNo, 5))}`,
    orderId: sha256Hex(`${categoryIdentifier}:${meterNo}`).slice(0, 32).toUpperCase(),
  };
}
