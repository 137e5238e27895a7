import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertEachAnswersAfter } from '../../../../test/latency.ts';
import { ManualClock } from '../../../shared/clock.ts';
import {
  assertRecordAnswers,
  assertWellFormedRecord,
  describeIdentityBureauContract,
  type IdentityBureauContractScenarios,
} from './identity-bureau.contract.ts';
import type {
  CreditBureau,
  IdentityBureau,
  IdentityLookupOutcome,
  IdentityLookupRequest,
  IdentityType,
} from './identity-bureau.ts';
import {
  createIdentityBureauSimulator,
  creditRating,
  isIdentityBureauSimulator,
  MAX_BUREAU_LATENCY_MS,
  MAX_REMEMBERED_OTPS,
  NIGERIAN_STATES,
  simulatedCompany,
  simulatedCreditReport,
  simulatedDirectorBvns,
  simulatedPerson,
  vninDigits,
} from './identity-bureau-simulator.ts';

const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
const simulator = (latencyMs = 0) => createIdentityBureauSimulator({ latencyMs, clock });

const BVN = '22212345671';
const NIN = '12345678901';
const VNIN = 'YV111111111111FY';
const VERIFIER = '499171';

const CAC_FORMAT = 'A CAC number is RC, BN or IT followed by 5 to 8 digits.';
const NO_TYPE = 'Unsupported identity type.';
const VNIN_VERIFIER = 'A vNIN is only valid with the verifierId it was generated for.';
const USSD_CODE = 'The USSD code does not match this BVN.';
const PROVIDER = 'provider must be creditRegistry or firstCentral.';

const bvn = (number: string): IdentityLookupRequest => ({ type: 'BVN', number });
const nin = (number: string): IdentityLookupRequest => ({ type: 'NIN', number });
const vnin = (number: string, verifierId?: string): IdentityLookupRequest => ({
  type: 'vNIN',
  number,
  ...(verifierId === undefined ? {} : { verifierId }),
});
const ussd = (number: string, otp?: string): IdentityLookupRequest => ({
  type: 'BVNUSSD',
  number,
  ...(otp === undefined ? {} : { otp }),
});
const cac = (number: string): IdentityLookupRequest => ({ type: 'CAC', number });
const credit = (number: string, provider?: string): IdentityLookupRequest => ({
  type: 'CREDITCHECK',
  number,
  // A caller's JSON may carry any provider; the simulator must judge it, not the type system.
  ...(provider === undefined ? {} : { provider: provider as CreditBureau }),
});

/** One request of each type for a number ending in the given four characters. */
function everyTypeEnding(suffix: string): IdentityLookupRequest[] {
  return [
    bvn(`2221234${suffix}`),
    nin(`1234567${suffix}`),
    vnin(`YV1111111111${suffix}`, VERIFIER),
    ussd(`2221234${suffix}`, '123456'),
    cac(`RC123${suffix}`),
    credit(`2221234${suffix}`, 'creditRegistry'),
  ];
}

const scenarios: IdentityBureauContractScenarios = {
  resolvable: [
    bvn(BVN),
    nin(NIN),
    vnin(VNIN, VERIFIER),
    ussd(BVN, '123456'),
    cac('RC1234567'),
    cac('BN7654321'),
    cac('IT123458'),
    credit(BVN, 'creditRegistry'),
    credit(BVN, 'firstCentral'),
  ],
  unknown: everyTypeEnding('0000'),
  mismatched: [...everyTypeEnding('8888'), vnin(VNIN), ussd(BVN, '000000'), credit(BVN)],
  unavailable: everyTypeEnding('9999'),
};

describeIdentityBureauContract('identity bureau simulator', () => simulator(), scenarios);
describeIdentityBureauContract(
  'identity bureau simulator with 2 ms latency',
  () => simulator(2),
  scenarios,
);

describe('identity bureau simulator magic numbers', () => {
  it('answers every type by the last four characters: 0000, 9999, 8888', async () => {
    const unavailable = 'The identity bureau is not available. Try again later.';
    const mismatch = 'The data on record does not match the request (name mismatch).';
    const notFoundLabels = ['BVN', 'NIN', 'vNIN', 'BVN', 'CAC registration', 'credit'];
    const expected = [
      ...notFoundLabels.map((label) => ({
        kind: 'notFound',
        message: `No ${label} record was found for this number.`,
      })),
      ...notFoundLabels.map(() => ({ kind: 'unavailable', message: unavailable })),
      ...notFoundLabels.map(() => ({ kind: 'mismatch', message: mismatch })),
    ];
    const requests = ['0000', '9999', '8888'].flatMap(everyTypeEnding);
    const outcomes = await Promise.all(requests.map((request) => simulator().lookup(request)));
    assert.deepEqual(outcomes, expected);
  });

  it('finds the same numbers when the last four are anything else', async () => {
    for (const suffix of ['0001', '1000', '9998', '8889', '0900', '5678']) {
      for (const request of everyTypeEnding(suffix)) {
        const outcome = await simulator().lookup(request);
        assert.equal(outcome.kind, 'found', `${request.type} ${request.number}`);
        assertRecordAnswers(request, outcome.record);
      }
    }
  });
});

describe('identity bureau simulator refuses malformed requests without throwing', () => {
  const cases: readonly [string, IdentityLookupRequest, string][] = [
    ['a 10-digit BVN', bvn('2221234567'), 'A BVN has 11 digits.'],
    ['a 12-digit BVN', bvn('222123456712'), 'A BVN has 11 digits.'],
    ['a BVN with a letter', bvn('2221234567X'), 'A BVN has 11 digits.'],
    ['a 10-digit NIN', nin('1234567890'), 'A NIN has 11 digits.'],
    ['a NIN with a space', nin('12345 78901'), 'A NIN has 11 digits.'],
    ['a 15-character vNIN', vnin('YV111111111111F', VERIFIER), 'A vNIN has 16 letters or digits.'],
    ['a 17-character vNIN', vnin(`${VNIN}Y`, VERIFIER), 'A vNIN has 16 letters or digits.'],
    [
      'a vNIN with a hyphen',
      vnin('YV11111-1111111F', VERIFIER),
      'A vNIN has 16 letters or digits.',
    ],
    ['a malformed vNIN without verifier', vnin('YV1'), 'A vNIN has 16 letters or digits.'],
    ['a BVNUSSD BVN of 10 digits', ussd('2221234567', '123456'), 'A BVN has 11 digits.'],
    ['a credit check of a 12-digit BVN', credit('222123456712'), 'A BVN has 11 digits.'],
    ['a CAC number of 4 digits', cac('RC1234'), CAC_FORMAT],
    ['a CAC number of 9 digits', cac('RC123456789'), CAC_FORMAT],
    ['a CAC number with another prefix', cac('LP1234567'), CAC_FORMAT],
    ['a CAC number with a space', cac('RC 1234567'), CAC_FORMAT],
    ['an empty number', bvn(''), 'A BVN has 11 digits.'],
    [
      'a number that is not a string',
      { type: 'BVN', number: 22212345671 as never },
      'A number is required.',
    ],
    ['an unsupported type', { type: 'vBVN' as IdentityType, number: BVN }, NO_TYPE],
  ];
  for (const [what, request, message] of cases) {
    it(`answers notFound for ${what}`, async () => {
      assert.deepEqual(await simulator().lookup(request), { kind: 'notFound', message });
    });
  }
});

describe('identity bureau simulator companion fields', () => {
  const refusals: readonly [string, IdentityLookupRequest, string][] = [
    ['a vNIN without verifierId', vnin(VNIN), VNIN_VERIFIER],
    ['a vNIN with a blank verifierId', vnin(VNIN, '  '), VNIN_VERIFIER],
    ['a BVNUSSD code 000000', ussd(BVN, '000000'), USSD_CODE],
    ['a BVNUSSD without code', ussd(BVN), USSD_CODE],
    ['a BVNUSSD code of 5 digits', ussd(BVN, '12345'), USSD_CODE],
    ['a BVNUSSD code of 7 digits', ussd(BVN, '1234567'), USSD_CODE],
    ['a BVNUSSD code with letters', ussd(BVN, '12345a'), USSD_CODE],
    ['a credit check without provider', credit(BVN), PROVIDER],
    ['a credit check with an unknown provider', credit(BVN, 'crc'), PROVIDER],
    ['a credit check with a provider in other case', credit(BVN, 'CreditRegistry'), PROVIDER],
    // A missing companion is judged before the number's last four digits.
    ['a missing verifierId on a vNIN ending 9999', vnin('YV11111111119999'), VNIN_VERIFIER],
    ['code 000000 on a BVN ending 0000', ussd('22212340000', '000000'), USSD_CODE],
    ['no provider on a BVN ending 9999', credit('22212349999'), PROVIDER],
  ];
  for (const [what, request, message] of refusals) {
    it(`answers mismatch for ${what}`, async () => {
      assert.deepEqual(await simulator().lookup(request), { kind: 'mismatch', message });
    });
  }

  it('finds a vNIN under any verifierId, in either case, as the person of its last 11 digits', async () => {
    const expected = simulatedPerson(vninDigits(VNIN).slice(-11));
    for (const request of [
      vnin(VNIN, VERIFIER),
      vnin(VNIN, 'another'),
      vnin(VNIN.toLowerCase(), 'x'),
    ]) {
      assert.deepEqual(await simulator().lookup(request), { kind: 'found', record: expected });
    }
  });

  it('finds a BVNUSSD with any other 6-digit code, as the same person as its BVN', async () => {
    const asBvn = await simulator().lookup(bvn(BVN));
    assert.equal(asBvn.kind, 'found');
    for (const otp of ['123456', '654321', '000001', '999999']) {
      assert.deepEqual(await simulator().lookup(ussd(BVN, otp)), asBvn, otp);
    }
  });

  it('reports the same credit data from both providers, naming the one asked', async () => {
    const registry = await simulator().lookup(credit(BVN, 'creditRegistry'));
    const central = await simulator().lookup(credit(BVN, 'firstCentral'));
    assert.ok(registry.kind === 'found' && registry.record.kind === 'creditReport');
    assert.ok(central.kind === 'found' && central.record.kind === 'creditReport');
    assert.equal(registry.record.provider, 'creditRegistry');
    assert.equal(central.record.provider, 'firstCentral');
    assert.deepEqual({ ...central.record, provider: 'creditRegistry' }, registry.record);
  });
});

describe('identity bureau simulator people', () => {
  it('derives every field of a person from the 11 digits', () => {
    assert.deepEqual(simulatedPerson(BVN), {
      kind: 'person',
      firstName: 'CHIDI',
      middleName: 'ADEBOLA',
      lastName: 'BALOGUN',
      dateOfBirth: '1981-12-18',
      gender: 'Male',
      phoneNumber: '+2348032221234',
      email: 'chidi.balogun@example.com',
      nationality: 'Nigeria',
      stateOfOrigin: 'Oyo',
      address: '57 Independence Avenue, Lagos',
    });
    // Digit 6 zero: no middle name; digit 8 zero: no email; the last digit even: Female.
    assert.deepEqual(simulatedPerson('22200000012'), {
      kind: 'person',
      firstName: 'AMAKA',
      middleName: null,
      lastName: 'OKAFOR',
      dateOfBirth: '1980-01-01',
      gender: 'Female',
      phoneNumber: '+2348032220000',
      email: null,
      nationality: 'Nigeria',
      stateOfOrigin: 'Adamawa',
      address: '1 Adeola Odeku Street, Lagos',
    });
  });

  it('follows each documented rule for many numbers', () => {
    for (const number of pseudoRandomNumbers(11, 300)) {
      const person = simulatedPerson(number);
      const digit = (position: number) => Number(number[position - 1]);
      assertWellFormedRecord(person);
      assert.equal(person.gender, digit(11) % 2 === 1 ? 'Male' : 'Female', number);
      assert.equal(person.middleName === null, digit(6) === 0, number);
      assert.equal(person.email === null, digit(8) === 0, number);
      assert.equal(person.phoneNumber, `+234803${number.slice(0, 7)}`);
      assert.equal(person.stateOfOrigin, NIGERIAN_STATES[Number(number.slice(8, 10)) % 37]);
      const year = Number(person.dateOfBirth.slice(0, 4));
      assert.equal(year, 1960 + (Number(number.slice(2, 4)) % 45), number);
    }
  });

  it('answers a BVN and a NIN of the same digits with the same person', async () => {
    const asBvn = await simulator().lookup(bvn(NIN));
    assert.deepEqual(await simulator().lookup(nin(NIN)), asBvn);
    assert.deepEqual(asBvn, { kind: 'found', record: simulatedPerson(NIN) });
  });

  it('turns a vNIN into digits: digits stay, letters count from A = 0, mod 10', () => {
    assert.equal(vninDigits(VNIN), '4111111111111154');
    assert.equal(vninDigits('AKUBLVJTZ0123456'), '0001119950123456');
    assert.equal(vninDigits('aKuBlVjTz0123456'), '0001119950123456');
    assert.throws(() => vninDigits('YV1'), RangeError);
  });

  it('refuses to derive a person from anything but 11 digits', () => {
    for (const number of ['2221234567', '222123456712', '2221234567X', '']) {
      assert.throws(() => simulatedPerson(number), RangeError, number);
    }
  });
});

describe('identity bureau simulator companies', () => {
  it('derives the company and its directors from the RC number', () => {
    assert.deepEqual(simulatedCompany('RC1234567'), {
      kind: 'company',
      companyName: 'OBIOMA PHARMACY LIMITED',
      registrationNumber: 'RC1234567',
      companyType: 'RC',
      registrationDate: '2000-08-08',
      address: '68 Aba Road, Kaduna',
      email: 'info.obiomapharmacy@example.com',
      status: 'ACTIVE',
      directors: [
        {
          firstName: 'CHIDI',
          middleName: 'ADEBOLA',
          lastName: 'BALOGUN',
          role: 'Director',
          bvn: '21012345671',
        },
        {
          firstName: 'BLESSING',
          middleName: 'ADEBOLA',
          lastName: 'OKAFOR',
          role: 'Director',
          bvn: '22012345672',
        },
      ],
    });
  });

  it('names business names and trustees by type, with proprietors and trustees', () => {
    const business = simulatedCompany('BN7654321');
    assert.equal(business.companyName, 'CROWN LOGISTICS ENTERPRISES');
    assert.equal(business.email, null);
    assert.deepEqual(
      business.directors.map((director) => director.role),
      ['Proprietor', 'Proprietor'],
    );
    const trustees = simulatedCompany('IT123458');
    assert.equal(trustees.companyName, 'INCORPORATED TRUSTEES OF ADUNNI FOUNDATION');
    assert.equal(trustees.email, 'info.adunni@example.com');
    assert.deepEqual(
      trustees.directors.map((director) => director.role),
      ['Trustee', 'Trustee', 'Trustee'],
    );
  });

  it('reads bare digits as RC and a prefix in any case, answering the canonical number', async () => {
    const cases = [
      ['1234567', 'RC1234567', 'RC'],
      ['rc1234567', 'RC1234567', 'RC'],
      ['bn1234567', 'BN1234567', 'BN'],
      ['It1234567', 'IT1234567', 'IT'],
      ['RC01234', 'RC01234', 'RC'],
      ['RC12345678', 'RC12345678', 'RC'],
    ] as const;
    for (const [number, registrationNumber, companyType] of cases) {
      const outcome = await simulator().lookup(cac(number));
      assert.ok(outcome.kind === 'found' && outcome.record.kind === 'company', number);
      assert.equal(outcome.record.registrationNumber, registrationNumber);
      assert.equal(outcome.record.companyType, companyType);
    }
    assert.deepEqual(await simulator().lookup(cac('1234567')), {
      kind: 'found',
      record: simulatedCompany('RC1234567'),
    });
  });

  it('has (last digit mod 3) + 1 directors with BVNs 2, i, the padded digits, i', () => {
    const cases = [
      ['RC1234560', ['21012345601']],
      ['RC1234567', ['21012345671', '22012345672']],
      ['RC1234565', ['21012345651', '22012345652', '23012345653']],
      ['RC12345', ['21000123451', '22000123452', '23000123453']],
      ['BN1234567', ['21012345671', '22012345672']],
      ['IT12345678', ['21123456781', '22123456782', '23123456783']],
    ] as const;
    for (const [registrationNumber, bvns] of cases) {
      assert.deepEqual(simulatedDirectorBvns(registrationNumber), bvns, registrationNumber);
      const company = simulatedCompany(registrationNumber);
      assert.deepEqual(
        company.directors.map((director) => director.bvn),
        bvns,
      );
    }
    assert.throws(() => simulatedDirectorBvns('RC1234'), RangeError);
  });

  it("proves a directorship: each director's BVN is found with the director's names", async () => {
    const bureau = simulator();
    for (const registrationNumber of ['RC1234567', 'RC1234565', 'BN7654321', 'IT123458']) {
      const outcome = await bureau.lookup(cac(registrationNumber));
      assert.ok(outcome.kind === 'found' && outcome.record.kind === 'company');
      for (const director of outcome.record.directors) {
        assert.ok(director.bvn !== null);
        const person = await bureau.lookup(bvn(director.bvn));
        assert.ok(person.kind === 'found' && person.record.kind === 'person', director.bvn);
        const { firstName, middleName, lastName } = person.record;
        assert.deepEqual(
          { firstName, middleName, lastName },
          {
            firstName: director.firstName,
            middleName: director.middleName,
            lastName: director.lastName,
          },
        );
      }
    }
  });

  it('derives well-formed companies whose directors are all findable, for many numbers', async () => {
    const bureau = simulator();
    const numbers = pseudoRandomNumbers(8, 200).map(
      (number, index) => `${['RC', 'BN', 'IT'][index % 3]}${number.slice(index % 4)}`,
    );
    for (const registrationNumber of numbers) {
      const company = simulatedCompany(registrationNumber);
      assertWellFormedRecord(company);
      assert.ok(company.directors.length >= 1 && company.directors.length <= 3);
      assert.equal(company.registrationNumber, registrationNumber);
      const year = Number(company.registrationDate.slice(0, 4));
      assert.ok(year >= 1990 && year <= 2024, company.registrationDate);
      for (const director of company.directors) {
        const outcome = await bureau.lookup(bvn(director.bvn ?? ''));
        assert.equal(outcome.kind, 'found', `${registrationNumber} director ${director.bvn}`);
      }
    }
  });
});

describe('identity bureau simulator credit reports', () => {
  it('derives the report from the BVN, dated by the clock', async () => {
    const report = {
      kind: 'creditReport',
      provider: 'creditRegistry',
      subjectName: 'CHIDI ADEBOLA BALOGUN',
      score: 420,
      rating: 'Poor',
      totalFacilities: 5,
      performingFacilities: 2,
      nonPerformingFacilities: 3,
      outstandingBalanceKobo: 61_700_000n,
      reportDate: '2026-03-01',
    };
    assert.deepEqual(await simulator().lookup(credit(BVN, 'creditRegistry')), {
      kind: 'found',
      record: report,
    });
    const later = new ManualClock(new Date('2026-03-02T00:00:00.000Z'));
    const tomorrow = createIdentityBureauSimulator({ clock: later });
    assert.deepEqual(await tomorrow.lookup(credit(BVN, 'creditRegistry')), {
      kind: 'found',
      record: { ...report, reportDate: '2026-03-02' },
    });
  });

  it('rates scores in bands: Poor to 549, Fair to 649, Good to 749, then Excellent', () => {
    const bands = [
      [300, 'Poor'],
      [549, 'Poor'],
      [550, 'Fair'],
      [649, 'Fair'],
      [650, 'Good'],
      [749, 'Good'],
      [750, 'Excellent'],
      [850, 'Excellent'],
    ] as const;
    for (const [score, rating] of bands) {
      assert.equal(creditRating(score), rating, String(score));
    }
  });

  it('follows each documented rule for many BVNs', () => {
    for (const number of pseudoRandomNumbers(11, 300)) {
      const report = simulatedCreditReport(number, 'firstCentral', '2026-03-01');
      assertWellFormedRecord(report);
      assert.equal(report.score, 300 + (Number(number.slice(8)) % 551), number);
      assert.equal(report.rating, creditRating(report.score));
      assert.equal(report.totalFacilities, Number(number[7]) % 6);
      const expectedNonPerforming = {
        Excellent: 0,
        Good: 0,
        Fair: Math.min(report.totalFacilities, 1),
        Poor: Math.ceil(report.totalFacilities / 2),
      }[report.rating];
      assert.equal(report.nonPerformingFacilities, expectedNonPerforming, number);
      assert.equal(
        report.outstandingBalanceKobo,
        BigInt(report.totalFacilities) * BigInt(number.slice(3, 7)) * 10_000n,
      );
    }
  });

  it('reaches both ends of the score range and every rating', () => {
    assert.equal(simulatedCreditReport('22212341000', 'creditRegistry', '2026-03-01').score, 300);
    assert.equal(simulatedCreditReport('22212341550', 'creditRegistry', '2026-03-01').score, 850);
    const ratings = new Set(
      pseudoRandomNumbers(11, 300).map(
        (number) => simulatedCreditReport(number, 'creditRegistry', '2026-03-01').rating,
      ),
    );
    assert.deepEqual([...ratings].sort(), ['Excellent', 'Fair', 'Good', 'Poor']);
  });
});

describe('identity bureau simulator OTP delivery', () => {
  const delivery = { phoneNumber: '+2348032221234', otp: '123456', reference: 'ver-1' };

  it('delivers, answers true, and remembers the last OTP per phone with when it was sent', async () => {
    const bureau = simulator();
    assert.equal(await bureau.lastOtpSentTo(delivery.phoneNumber), undefined);
    assert.equal(await bureau.deliverOtp(delivery), true);
    assert.deepEqual(await bureau.lastOtpSentTo(delivery.phoneNumber), {
      ...delivery,
      sentAt: clock.now(),
    });
    const again = { ...delivery, otp: '654321', reference: 'ver-2' };
    assert.equal(await bureau.deliverOtp(again), true);
    assert.deepEqual(await bureau.lastOtpSentTo(delivery.phoneNumber), {
      ...again,
      sentAt: clock.now(),
    });
    assert.equal(await bureau.lastOtpSentTo('+2348030000001'), undefined);
  });

  it('answers false for a phone ending 9999 (SMS gateway down) and remembers nothing', async () => {
    const bureau = simulator();
    const down = { ...delivery, phoneNumber: '+2348032229999' };
    assert.equal(await bureau.deliverOtp(down), false);
    assert.equal(await bureau.lastOtpSentTo(down.phoneNumber), undefined);
  });

  it('finds BVN 22299991234 but cannot send an OTP to its phone', async () => {
    const bureau = simulator();
    const outcome = await bureau.lookup(bvn('22299991234'));
    assert.ok(outcome.kind === 'found' && outcome.record.kind === 'person');
    assert.equal(outcome.record.phoneNumber, '+2348032229999');
    assert.equal(await bureau.deliverOtp({ ...delivery, phoneNumber: '+2348032229999' }), false);
  });

  it('answers false for a phone or OTP it cannot send', async () => {
    const bureau = simulator();
    const refused = [
      { ...delivery, phoneNumber: '08032221234' },
      { ...delivery, phoneNumber: '+234803222123' },
      { ...delivery, phoneNumber: '+23480322212345' },
      { ...delivery, phoneNumber: '+4479460000001' },
      { ...delivery, otp: '' },
      { ...delivery, otp: '123' },
      { ...delivery, otp: '123456789' },
      { ...delivery, otp: '12345a' },
    ];
    for (const request of refused) {
      assert.equal(await bureau.deliverOtp(request), false, JSON.stringify(request));
      assert.equal(await bureau.lastOtpSentTo(request.phoneNumber), undefined);
    }
    for (const otp of ['1234', '12345678']) {
      assert.equal(await bureau.deliverOtp({ ...delivery, otp }), true, otp);
    }
  });

  it(`remembers the last ${MAX_REMEMBERED_OTPS} phones, forgetting the least recent first`, async () => {
    const bureau = simulator();
    // Ending 1, never 9999 (a phone the gateway cannot reach).
    const phone = (index: number) => `+2348${String(index).padStart(8, '0')}1`;
    for (let index = 0; index <= MAX_REMEMBERED_OTPS; index += 1) {
      assert.equal(await bureau.deliverOtp({ ...delivery, phoneNumber: phone(index) }), true);
      if (index === 2) {
        // Phone 0 is sent to again, so it is recent again and outlives phone 1.
        await bureau.deliverOtp({ ...delivery, phoneNumber: phone(0), reference: 'again' });
      }
    }
    assert.equal((await bureau.lastOtpSentTo(phone(0)))?.reference, 'again');
    assert.equal(await bureau.lastOtpSentTo(phone(1)), undefined);
    assert.notEqual(await bureau.lastOtpSentTo(phone(2)), undefined);
    assert.notEqual(await bureau.lastOtpSentTo(phone(MAX_REMEMBERED_OTPS)), undefined);
  });
});

describe('identity bureau simulator: the test numbers in docs/sandbox-identity.md', () => {
  /** An outcome as one line of the docs' table. */
  function summary(outcome: IdentityLookupOutcome): string {
    if (outcome.kind !== 'found') {
      return outcome.kind;
    }
    const { record } = outcome;
    switch (record.kind) {
      case 'person':
        return [record.firstName, record.middleName, record.lastName, record.phoneNumber]
          .filter((part) => part !== null)
          .join(' ');
      case 'company':
        return [
          record.companyName,
          ...record.directors.map((director) =>
            [director.bvn, director.firstName, director.middleName, director.lastName]
              .filter((part) => part !== null)
              .join(' '),
          ),
        ].join(' / ');
      case 'creditReport':
        return `${record.subjectName} ${record.score} ${record.rating} ${record.performingFacilities}+${record.nonPerformingFacilities} ${record.outstandingBalanceKobo}`;
    }
  }

  const rows: readonly [IdentityLookupRequest, string][] = [
    [bvn('22212345671'), 'CHIDI ADEBOLA BALOGUN +2348032221234'],
    [bvn('22212340000'), 'notFound'],
    [bvn('22212349999'), 'unavailable'],
    [bvn('22212348888'), 'mismatch'],
    [bvn('22299991234'), 'ZAINAB CHIDERA OBI +2348032229999'],
    [nin('12345678901'), 'BABAJIDE AYOMIDE ADEYEMI +2348031234567'],
    [nin('12345670000'), 'notFound'],
    [vnin(VNIN, 'any-verifier'), 'HALIMA OLUWASEUN ADEBAYO +2348031111111'],
    [vnin(VNIN), 'mismatch'],
    [ussd('22212345671', '123456'), 'CHIDI ADEBOLA BALOGUN +2348032221234'],
    [ussd('22212345671', '000000'), 'mismatch'],
    [
      cac('RC1234567'),
      'OBIOMA PHARMACY LIMITED / 21012345671 CHIDI ADEBOLA BALOGUN / 22012345672 BLESSING ADEBOLA OKAFOR',
    ],
    [
      cac('IT123458'),
      'INCORPORATED TRUSTEES OF ADUNNI FOUNDATION / 21001234581 TUNDE CHINONSO MUSA / 22001234582 ADAEZE CHINONSO OBI / 23001234583 BABAJIDE CHINONSO BALOGUN',
    ],
    [cac('RC1230000'), 'notFound'],
    [credit('22212345500', 'creditRegistry'), 'AMAKA ADEBOLA OGUNLEYE 800 Excellent 5+0 61700000'],
    [credit('22212347300', 'firstCentral'), 'AMAKA ADEBOLA OGUNLEYE 600 Fair 0+1 12340000'],
    [credit('22212345671', 'firstCentral'), 'CHIDI ADEBOLA BALOGUN 420 Poor 2+3 61700000'],
    [credit('22212345671'), 'mismatch'],
  ];
  for (const [request, expected] of rows) {
    it(`${request.type} ${request.number}: ${expected}`, async () => {
      assert.equal(summary(await simulator().lookup(request)), expected);
    });
  }

  it('cannot deliver the OTP for BVN 22299991234 (its phone ends 9999)', async () => {
    const delivery = { phoneNumber: '+2348032229999', otp: '123456', reference: 'docs' };
    assert.equal(await simulator().deliverOtp(delivery), false);
  });
});

describe('identity bureau simulator determinism', () => {
  it('answers the same to the same request from any simulator', async () => {
    const requests = [
      ...scenarios.resolvable,
      ...scenarios.unknown,
      ...(scenarios.mismatched ?? []),
    ];
    for (const request of requests) {
      assert.deepEqual(
        await simulator().lookup(request),
        await simulator().lookup(request),
        request.number,
      );
    }
  });
});

describe('identity bureau simulator options', () => {
  it('waits the configured latency before every answer, but delivers at once', async () => {
    const bureau = simulator(100);
    const phoneNumber = '+2348031112222';
    const calls = [
      () => bureau.lookup(bvn(BVN)),
      () => bureau.lookup(bvn('22212349999')),
      () => bureau.deliverOtp({ phoneNumber, otp: '123456', reference: 'slow' }),
    ];
    await assertEachAnswersAfter(100, calls);
    const slow = simulator(100);
    const pending = slow.deliverOtp({ phoneNumber, otp: '123456', reference: 'early' });
    assert.equal((await slow.lastOtpSentTo(phoneNumber))?.reference, 'early');
    assert.equal(await pending, true);
  });

  it('refuses a latency outside 0..MAX_BUREAU_LATENCY_MS', () => {
    for (const latencyMs of [-1, 1.5, Number.NaN, MAX_BUREAU_LATENCY_MS + 1]) {
      assert.throws(() => simulator(latencyMs), RangeError, String(latencyMs));
    }
    assert.doesNotThrow(() => simulator(MAX_BUREAU_LATENCY_MS));
  });

  it('is recognisable as a simulator', () => {
    const plain: IdentityBureau = {
      lookup: async () => ({ kind: 'notFound', message: 'No record.' }),
      deliverOtp: async () => true,
    };
    assert.equal(isIdentityBureauSimulator(simulator()), true);
    assert.equal(isIdentityBureauSimulator(plain), false);
  });
});

/** Deterministic digit strings (a fixed linear congruential sequence), for rule sweeps. */
function pseudoRandomNumbers(length: number, count: number): string[] {
  let state = 20_260_301;
  const next = () => {
    // Park-Miller: the product stays below 2^53, so every step is exact.
    state = (state * 48_271) % 2_147_483_647;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => String(next() % 10)).join(''),
  );
}
