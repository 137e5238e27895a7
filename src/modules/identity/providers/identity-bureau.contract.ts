import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  CREDIT_BUREAUS,
  type IdentityBureau,
  type IdentityLookupOutcome,
  type IdentityLookupRequest,
  type IdentityRecord,
  type IdentityType,
} from './identity-bureau.ts';

/**
 * The behaviour every IdentityBureau must show, whatever bureau sits behind it. The identity
 * service charges only for a `found` answer and sends OTPs to the phone on the record, so a
 * bureau that fails one of these points can charge a customer for nothing, verify the wrong
 * person, or strand a verification. Run it from the bureau's own test file.
 */

export interface IdentityBureauContractScenarios {
  /**
   * Requests the bureau finds, at least one: each must answer `found` with a record of its
   * type's kind. Give one per type the bureau supports; BVN and NIN ones also drive deliverOtp.
   */
  readonly resolvable: readonly [IdentityLookupRequest, ...IdentityLookupRequest[]];
  /** Well-formed requests for numbers nobody has: `notFound`. */
  readonly unknown: readonly IdentityLookupRequest[];
  /** Requests whose data on record contradicts them: `mismatch`. Empty if it cannot be forced. */
  readonly mismatched?: readonly IdentityLookupRequest[];
  /** Requests answered `unavailable` (bureau down). Empty for a bureau that cannot be made to. */
  readonly unavailable?: readonly IdentityLookupRequest[];
}

/** The record kind each identity type is answered with. */
export const RECORD_KIND_OF: Readonly<Record<IdentityType, IdentityRecord['kind']>> = {
  BVN: 'person',
  NIN: 'person',
  vNIN: 'person',
  BVNUSSD: 'person',
  CAC: 'company',
  CREDITCHECK: 'creditReport',
};

/** Numbers no bureau can find for an 11-digit type: wrong length, or not (ASCII) digits. */
const MALFORMED_ELEVEN_DIGITS: readonly string[] = [
  '2221234567',
  '222123456712',
  '2221234567X',
  '222 1234567',
  '+2221234567',
  '٢٢٢١٢٣٤٥٦٧١',
];

/** Numbers no bureau can find, by type (and, for every type, blank or punctuation only). */
const MALFORMED_NUMBERS: Readonly<Record<IdentityType, readonly string[]>> = {
  BVN: MALFORMED_ELEVEN_DIGITS,
  NIN: MALFORMED_ELEVEN_DIGITS,
  BVNUSSD: MALFORMED_ELEVEN_DIGITS,
  CREDITCHECK: MALFORMED_ELEVEN_DIGITS,
  vNIN: ['AB1234567890CD', 'AB12345678901234CD', 'AB12-4567890123C', 'AB 12345678901CD'],
  CAC: ['RC', 'XY1234567', 'RCABCDEFG', 'RC12'],
};
const MALFORMED_ANY: readonly string[] = ['', '   ', '@@@@@@@@@@@'];

export function describeIdentityBureauContract(
  name: string,
  makeBureau: () => Promise<IdentityBureau> | IdentityBureau,
  scenarios: IdentityBureauContractScenarios,
): void {
  describe(`IdentityBureau contract: ${name}`, () => {
    let built: IdentityBureau | undefined;
    before(async () => {
      built = await makeBureau();
    });
    const bureau = (): IdentityBureau => {
      assert.ok(built, 'the bureau is built in before()');
      return built;
    };
    describeFound(bureau, scenarios);
    describeNotFound(bureau, scenarios);
    describeOtherOutcomes(bureau, scenarios);
    describeOtpDelivery(bureau, scenarios);
  });
}

function describeFound(bureau: () => IdentityBureau, scenarios: IdentityBureauContractScenarios) {
  describe('a resolvable number', () => {
    for (const request of scenarios.resolvable) {
      const kind = RECORD_KIND_OF[request.type];
      it(`finds ${describeRequest(request)} with a well-formed ${kind} record`, async () => {
        const record = await found(bureau(), request);
        assertRecordAnswers(request, record);
      });

      it(`answers the same record every time (${describeRequest(request)})`, async () => {
        const first = await found(bureau(), request);
        const second = await found(bureau(), request);
        // A credit report may be dated by the day asked; everything else must not move.
        assert.deepEqual(withoutReportDate(second), withoutReportDate(first));
      });
    }

    it('answers concurrent lookups each with its own record', async () => {
      const requests = [...scenarios.resolvable, ...scenarios.resolvable];
      const together = await Promise.all(requests.map((request) => found(bureau(), request)));
      for (const [index, request] of requests.entries()) {
        const alone = await found(bureau(), request);
        assert.deepEqual(withoutReportDate(together[index]), withoutReportDate(alone));
      }
    });
  });
}

function describeNotFound(
  bureau: () => IdentityBureau,
  scenarios: IdentityBureauContractScenarios,
) {
  describe('an unknown or malformed number', () => {
    for (const request of scenarios.unknown) {
      it(`answers notFound for ${describeRequest(request)}`, async () => {
        const outcome = await lookup(bureau(), request);
        assert.equal(outcome.kind, 'notFound', outcomeSummary(outcome));
      });
    }

    // The resolvable requests with a broken number: every companion field stays valid, so
    // only the number can be why the bureau does not find them.
    for (const type of new Set(scenarios.resolvable.map((request) => request.type))) {
      const template = scenarios.resolvable.find((request) => request.type === type);
      assert.ok(template);
      const numbers = [...MALFORMED_NUMBERS[type], ...MALFORMED_ANY];
      it(`never finds a malformed ${type} number, and answers rather than throws`, async () => {
        for (const number of numbers) {
          const outcome = await lookup(bureau(), { ...template, number });
          assert.ok(
            outcome.kind === 'notFound' || outcome.kind === 'mismatch',
            `${type} ${JSON.stringify(number)}: ${outcomeSummary(outcome)}`,
          );
        }
      });
    }
  });
}

function describeOtherOutcomes(
  bureau: () => IdentityBureau,
  scenarios: IdentityBureauContractScenarios,
) {
  const cases = [
    ['mismatch', scenarios.mismatched ?? []],
    ['unavailable', scenarios.unavailable ?? []],
  ] as const;
  for (const [kind, requests] of cases) {
    describe(`a number answered ${kind}`, () => {
      if (requests.length === 0) {
        it(`answers ${kind}`, { skip: `the bureau supplied no ${kind} scenario` }, () => {});
      }
      for (const request of requests) {
        it(`answers ${kind} with a message for ${describeRequest(request)}`, async () => {
          const outcome = await lookup(bureau(), request);
          assert.equal(outcome.kind, kind, outcomeSummary(outcome));
        });
      }
    });
  }
}

function describeOtpDelivery(
  bureau: () => IdentityBureau,
  scenarios: IdentityBureauContractScenarios,
) {
  describe('OTP delivery', () => {
    const people = scenarios.resolvable.filter(
      (request) => request.type === 'BVN' || request.type === 'NIN',
    );
    if (people.length === 0) {
      it('delivers to the phone on record', { skip: 'no resolvable BVN or NIN given' }, () => {});
    }
    for (const request of people) {
      it(`delivers an OTP to the phone on record of ${describeRequest(request)}`, async () => {
        const record = await found(bureau(), request);
        assert.equal(record.kind, 'person');
        const delivery = { phoneNumber: record.phoneNumber, otp: '123456', reference: 'contract' };
        assert.equal(await deliver(bureau(), delivery), true);
      });
    }

    it('answers false, rather than throws, for a phone number it cannot deliver to', async () => {
      for (const phoneNumber of ['', 'not a phone', '0803', '+23480312345678901']) {
        const delivery = { phoneNumber, otp: '123456', reference: 'contract' };
        assert.equal(await deliver(bureau(), delivery), false, JSON.stringify(phoneNumber));
      }
    });
  });
}

async function lookup(
  bureau: IdentityBureau,
  request: IdentityLookupRequest,
): Promise<IdentityLookupOutcome> {
  const outcome = await answered(() => bureau.lookup(request), 'lookup');
  assertWellFormedLookupOutcome(outcome);
  return outcome;
}

async function found(
  bureau: IdentityBureau,
  request: IdentityLookupRequest,
): Promise<IdentityRecord> {
  const outcome = await lookup(bureau, request);
  assert.equal(outcome.kind, 'found', `${describeRequest(request)}: ${outcomeSummary(outcome)}`);
  return outcome.record;
}

async function deliver(
  bureau: IdentityBureau,
  delivery: Parameters<IdentityBureau['deliverOtp']>[0],
): Promise<boolean> {
  const delivered = await answered(() => bureau.deliverOtp(delivery), 'deliverOtp');
  assert.equal(typeof delivered, 'boolean', 'deliverOtp answers a boolean');
  return delivered;
}

/** Bureaus answer bureau-side problems as outcomes; a rejection would strand the caller. */
async function answered<T>(call: () => Promise<T>, method: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    assert.fail(`${method} threw instead of answering: ${String(error)}`);
  }
}

function describeRequest(request: IdentityLookupRequest): string {
  const extras = [
    request.provider === undefined ? '' : ` via ${request.provider}`,
    request.verifierId === undefined ? '' : ` for verifier ${request.verifierId}`,
    request.otp === undefined ? '' : ` with code ${request.otp}`,
  ];
  return `${request.type} ${JSON.stringify(request.number)}${extras.join('')}`;
}

function outcomeSummary(outcome: IdentityLookupOutcome): string {
  return outcome.kind === 'found'
    ? `found a ${outcome.record.kind}`
    : `${outcome.kind}: ${outcome.message}`;
}

function withoutReportDate(record: IdentityRecord | undefined): unknown {
  if (record?.kind !== 'creditReport') {
    return record;
  }
  const { reportDate: _ignored, ...rest } = record;
  return rest;
}

/** The found record is of the kind the request's type asks for, and about what was asked. */
export function assertRecordAnswers(request: IdentityLookupRequest, record: IdentityRecord): void {
  assert.equal(record.kind, RECORD_KIND_OF[request.type], `${request.type} answers its kind`);
  if (record.kind === 'company') {
    const digits = request.number.replace(/\D/g, '');
    assert.ok(
      record.registrationNumber.endsWith(digits),
      `${record.registrationNumber} is the company asked for (${request.number})`,
    );
  }
  if (record.kind === 'creditReport') {
    assert.equal(record.provider, request.provider, 'the credit report names the provider asked');
  }
}

export function assertWellFormedLookupOutcome(outcome: IdentityLookupOutcome): void {
  assert.ok(
    ['found', 'notFound', 'mismatch', 'unavailable'].includes(outcome.kind),
    `kind ${outcome.kind}`,
  );
  if (outcome.kind === 'found') {
    assertWellFormedRecord(outcome.record);
  } else {
    assert.equal(typeof outcome.message, 'string');
    assert.ok(outcome.message.trim() !== '', `a ${outcome.kind} answer has a message`);
  }
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A Nigerian mobile number in E.164: +234, then 7, 8 or 9, then 0 or 1, then 8 digits. */
const NIGERIAN_MOBILE = /^\+234[789][01]\d{8}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Records carry no obviously invalid data: the identity service stores and shows them as is. */
export function assertWellFormedRecord(record: IdentityRecord): void {
  switch (record.kind) {
    case 'person':
      assertName(record.firstName, 'firstName');
      assertOptionalText(record.middleName, 'middleName');
      assertName(record.lastName, 'lastName');
      assertPastDate(record.dateOfBirth, 'dateOfBirth');
      assert.ok(['Male', 'Female'].includes(record.gender), `gender ${record.gender}`);
      assert.match(record.phoneNumber, NIGERIAN_MOBILE, 'phoneNumber');
      assertOptionalEmail(record.email);
      assertName(record.nationality, 'nationality');
      assertOptionalText(record.stateOfOrigin, 'stateOfOrigin');
      assertOptionalText(record.address, 'address');
      return;
    case 'company':
      assertName(record.companyName, 'companyName');
      assert.ok(['RC', 'BN', 'IT'].includes(record.companyType), `type ${record.companyType}`);
      assert.match(record.registrationNumber, /^(RC|BN|IT)?\d+$/, 'registrationNumber');
      assertPastDate(record.registrationDate, 'registrationDate');
      assertName(record.address, 'address');
      assertOptionalEmail(record.email);
      assert.ok(['ACTIVE', 'INACTIVE'].includes(record.status), `status ${record.status}`);
      assert.ok(record.directors.length >= 1, 'a company has at least one director');
      for (const director of record.directors) {
        assertName(director.firstName, 'director firstName');
        assertOptionalText(director.middleName, 'director middleName');
        assertName(director.lastName, 'director lastName');
        assert.ok(
          ['Director', 'Secretary', 'Proprietor', 'Trustee'].includes(director.role),
          `role ${director.role}`,
        );
        if (director.bvn !== null) {
          assert.match(director.bvn, /^\d{11}$/, 'director bvn');
        }
      }
      return;
    case 'creditReport':
      assert.ok(CREDIT_BUREAUS.includes(record.provider), `provider ${record.provider}`);
      assertName(record.subjectName, 'subjectName');
      assert.ok(Number.isInteger(record.score), `score ${record.score} is an integer`);
      assert.ok(record.score >= 300 && record.score <= 850, `score ${record.score} in 300-850`);
      assert.ok(
        ['Excellent', 'Good', 'Fair', 'Poor'].includes(record.rating),
        `rating ${record.rating}`,
      );
      for (const count of [
        record.totalFacilities,
        record.performingFacilities,
        record.nonPerformingFacilities,
      ]) {
        assert.ok(Number.isInteger(count) && count >= 0, `facility count ${count}`);
      }
      assert.equal(
        record.performingFacilities + record.nonPerformingFacilities,
        record.totalFacilities,
        'performing + non-performing = total facilities',
      );
      assert.equal(typeof record.outstandingBalanceKobo, 'bigint', 'balance in bigint kobo');
      assert.ok(record.outstandingBalanceKobo >= 0n, 'outstanding balance is not negative');
      assertPastDate(record.reportDate, 'reportDate');
      return;
    default:
      assert.fail(`unknown record kind ${(record as { kind: unknown }).kind}`);
  }
}

function assertName(value: string, field: string): void {
  assert.equal(typeof value, 'string', field);
  assert.ok(value.trim() !== '' && value === value.trim(), `${field} ${JSON.stringify(value)}`);
}

function assertOptionalText(value: string | null, field: string): void {
  if (value !== null) {
    assertName(value, field);
  }
}

function assertOptionalEmail(value: string | null): void {
  if (value !== null) {
    assert.match(value, EMAIL, 'email');
  }
}

/** A real calendar date, YYYY-MM-DD, from 1900 and not after today (UTC, with a day's slack). */
function assertPastDate(value: string, field: string): void {
  const match = ISO_DATE.exec(value);
  assert.ok(match, `${field} ${JSON.stringify(value)} is YYYY-MM-DD`);
  const date = new Date(`${value}T00:00:00.000Z`);
  assert.equal(date.toISOString().slice(0, 10), value, `${field} ${value} is a real date`);
  assert.ok(date.getUTCFullYear() >= 1900, `${field} ${value} is from 1900`);
  assert.ok(date.getTime() <= Date.now() + 86_400_000, `${field} ${value} is not in the future`);
}
