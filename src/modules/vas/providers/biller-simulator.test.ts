import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertEachAnswersAfter } from '../../../../test/latency.ts';
import { sha256Hex } from '../../../shared/hashing.ts';
import {
  assertWellFormedCustomer,
  type BillerContractScenarios,
  describeBillerContract,
  type PurchaseScenario,
} from './biller.contract.ts';
import type { Biller, BillerPurchaseRequest, BillerVerifyRequest, VasService } from './biller.ts';
import {
  BILLER_MAGIC,
  BILLER_MESSAGES,
  createBillerSimulator,
  isBillerSimulator,
  MAX_BILLER_LATENCY_MS,
  simulatedCard,
  simulatedMeter,
  simulatedToken,
} from './biller-simulator.ts';
import { createUnconfiguredBiller } from './unconfigured-biller.ts';

const simulator = (latencyMs = 0) => createBillerSimulator({ latencyMs });

const PHONE = '08031234567';
const CARD = '7012345678';
const METER = '45712345678';
const POSTPAID_METER = '04712345678';
const REFERENCE = '0123456789abcdef0123456789abcdef';
const OTHER_REFERENCE = 'fedcba9876543210fedcba9876543210';

const airtime = (beneficiary: string): PurchaseScenario => ({
  service: 'AIRTIME',
  categoryIdentifier: 'MTN',
  amountKobo: 10_000n,
  beneficiary,
});
const data = (beneficiary: string): PurchaseScenario => ({
  service: 'DATA',
  categoryIdentifier: 'MTN',
  bundleCode: 'mtn-1gb-1d',
  amountKobo: 35_000n,
  beneficiary,
});
const cable = (beneficiary: string): PurchaseScenario => ({
  service: 'CABLETV',
  categoryIdentifier: 'DSTV',
  bundleCode: 'db1',
  amountKobo: 360_000n,
  beneficiary,
});
const utility = (beneficiary: string, amountKobo = 500_000n): PurchaseScenario => ({
  service: 'UTILITY',
  categoryIdentifier: 'IKEJA',
  amountKobo,
  beneficiary,
  vendType: beneficiary.startsWith('0') ? 'POSTPAID' : 'PREPAID',
});
const verifyCard = (entityNumber: string): BillerVerifyRequest => ({
  service: 'CABLETV',
  categoryIdentifier: 'DSTV',
  entityNumber,
});
const verifyMeter = (entityNumber: string, categoryIdentifier = 'IKEJA'): BillerVerifyRequest => ({
  service: 'UTILITY',
  categoryIdentifier,
  entityNumber,
});
const withReference = (
  scenario: PurchaseScenario,
  reference = REFERENCE,
): BillerPurchaseRequest => ({
  ...scenario,
  reference,
});

/** One sale per service to a beneficiary ending in the given four digits. */
function everyServiceEnding(suffix: string): PurchaseScenario[] {
  return [
    airtime(`0803123${suffix}`),
    data(`0803123${suffix}`),
    cable(`701234${suffix}`),
    utility(`4571234${suffix}`),
  ];
}

/** A card and a meter ending in the given four digits. */
function cardAndMeterEnding(suffix: string): BillerVerifyRequest[] {
  return [verifyCard(`701234${suffix}`), verifyMeter(`4571234${suffix}`)];
}

const scenarios: BillerContractScenarios = {
  successful: [
    airtime(PHONE),
    airtime('2348031234567'),
    data(PHONE),
    cable(CARD),
    cable('10123456789'),
    utility(METER),
    utility(POSTPAID_METER),
    utility('4571234567890'),
  ],
  notFound: [verifyCard('7012340404'), verifyMeter('45712340404')],
  failed: [...everyServiceEnding('0000'), cable('7012340404'), utility('45712340404')],
  pending: [...everyServiceEnding('1111'), ...everyServiceEnding('2222')],
  unavailable: [...everyServiceEnding('3333'), ...everyServiceEnding('4444')],
  verifyUnavailable: cardAndMeterEnding('5030'),
};

describeBillerContract('biller simulator', () => simulator(), scenarios);
describeBillerContract('biller simulator with 2 ms latency', () => simulator(2), scenarios);

describe('biller simulator magic endings', () => {
  it('is the documented table', () => {
    // Sorted: integer-like keys (1111) enumerate before the others (0000), whatever the source.
    const rows = Object.entries(BILLER_MAGIC)
      .map(
        ([ending, magic]) =>
          `${ending} ${magic.services.join('+')} verify ${magic.verify}, purchase ${magic.purchase}, status ${magic.queryStatus}`,
      )
      .sort();
    const every = 'AIRTIME+DATA+CABLETV+UTILITY';
    assert.deepEqual(rows, [
      `0000 ${every} verify found, purchase failed, status failed`,
      '0404 CABLETV+UTILITY verify notFound, purchase failed, status failed',
      `1111 ${every} verify found, purchase pending, status successful`,
      `2222 ${every} verify found, purchase pending, status failed`,
      `3333 ${every} verify found, purchase unavailable, status successful`,
      `4444 ${every} verify found, purchase unavailable, status failed`,
      '5030 CABLETV+UTILITY verify unavailable, purchase successful, status successful',
    ]);
  });

  const declined = { kind: 'failed', message: 'The biller declined the purchase' };
  const pending = { kind: 'pending', message: BILLER_MESSAGES.pending };
  const unavailable = { kind: 'unavailable', message: BILLER_MESSAGES.unavailable };
  const cases = [
    ['0000', declined, declined],
    ['1111', pending, undefined],
    ['2222', pending, declined],
    ['3333', unavailable, undefined],
    ['4444', unavailable, declined],
  ] as const;
  for (const [suffix, purchased, queried] of cases) {
    const settles = queried === undefined ? 'successful' : 'failed';
    it(`ending ${suffix}: purchase ${purchased.kind}, status query ${settles}, every service`, async () => {
      const biller = simulator();
      for (const scenario of everyServiceEnding(suffix)) {
        const request = withReference(scenario);
        assert.deepEqual(await biller.purchase(request), purchased, request.beneficiary);
        const status = await biller.queryStatus(request);
        if (queried === undefined) {
          assert.equal(status.kind, 'successful', request.beneficiary);
          assert.deepEqual(status, await biller.queryStatus(request), 'the same sale every time');
        } else {
          assert.deepEqual(status, queried, request.beneficiary);
        }
      }
    });
  }

  it('ending 0404: an unknown card or meter, but a phone is sold', async () => {
    const biller = simulator();
    const unknown = { kind: 'failed', message: 'Unknown meter or card' };
    for (const scenario of [cable('7012340404'), utility('45712340404')]) {
      assert.deepEqual(await biller.purchase(withReference(scenario)), unknown);
      assert.deepEqual(await biller.queryStatus(withReference(scenario)), unknown);
    }
    for (const request of cardAndMeterEnding('0404')) {
      assert.deepEqual(await biller.verify(request), {
        kind: 'notFound',
        message: 'Unknown meter or card',
      });
    }
    for (const scenario of [airtime('08031230404'), data('08031230404')]) {
      assert.deepEqual(await biller.purchase(withReference(scenario)), { kind: 'successful' });
    }
  });

  it('ending 5030: verification is unavailable, but a sale goes through', async () => {
    const biller = simulator();
    for (const request of cardAndMeterEnding('5030')) {
      assert.deepEqual(await biller.verify(request), {
        kind: 'unavailable',
        message: BILLER_MESSAGES.verifyUnavailable,
      });
    }
    for (const scenario of everyServiceEnding('5030')) {
      assert.equal((await biller.purchase(withReference(scenario))).kind, 'successful');
      assert.equal((await biller.queryStatus(withReference(scenario))).kind, 'successful');
    }
  });

  it('verifies the cards and meters of every other magic ending', async () => {
    for (const suffix of ['0000', '1111', '2222', '3333', '4444']) {
      for (const request of cardAndMeterEnding(suffix)) {
        assert.equal((await simulator().verify(request)).kind, 'found', request.entityNumber);
      }
    }
  });

  it('finds and sells when the last four are anything else', async () => {
    const biller = simulator();
    for (const suffix of ['0001', '1000', '1112', '0405', '5031', '9999', '5678']) {
      for (const scenario of everyServiceEnding(suffix)) {
        const request = withReference(scenario);
        assert.equal((await biller.purchase(request)).kind, 'successful', request.beneficiary);
        assert.equal((await biller.queryStatus(request)).kind, 'successful', request.beneficiary);
      }
      for (const request of cardAndMeterEnding(suffix)) {
        assert.equal((await biller.verify(request)).kind, 'found', request.entityNumber);
      }
    }
  });
});

describe('biller simulator deliveries', () => {
  it('derives the token from the reference: 20 digits in dashed groups of four', async () => {
    assert.equal(simulatedToken(REFERENCE), '7876-2212-8815-9128-5753');
    const biller = simulator();
    const sold = await biller.purchase(withReference(utility(METER)));
    assert.deepEqual(sold, { kind: 'successful', token: '7876-2212-8815-9128-5753' });
    // Another meter, amount or simulator: the same reference, the same token.
    const elsewhere = withReference(utility(POSTPAID_METER, 1_000_000n));
    assert.deepEqual(await simulator().queryStatus(elsewhere), sold);
    const other = await biller.purchase(withReference(utility(METER), OTHER_REFERENCE));
    assert.ok(other.kind === 'successful');
    assert.notEqual(other.token, sold.token, 'another reference, another token');
    for (let index = 0; index < 200; index += 1) {
      const token = simulatedToken(sha256Hex(String(index)).slice(0, 32));
      assert.match(token, /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/);
    }
  });

  it("names the card's holder on a cable sale, as verification does", async () => {
    const biller = simulator();
    const verified = await biller.verify(verifyCard(CARD));
    assert.deepEqual(verified, {
      kind: 'found',
      customer: { kind: 'card', name: 'TUNDE ADEBAYO' },
    });
    const expected = { kind: 'successful', receiverName: 'TUNDE ADEBAYO' };
    assert.deepEqual(await biller.purchase(withReference(cable(CARD))), expected);
    assert.deepEqual(await biller.queryStatus(withReference(cable(CARD))), expected);
  });

  it('delivers airtime and data with nothing more to say', async () => {
    for (const scenario of [airtime(PHONE), data('2348031234567')]) {
      assert.deepEqual(await simulator().purchase(withReference(scenario)), {
        kind: 'successful',
      });
    }
  });
});

describe('biller simulator verification', () => {
  it('derives the meter from the category and number', async () => {
    assert.deepEqual(await simulator().verify(verifyMeter(METER)), {
      kind: 'found',
      customer: {
        kind: 'meter',
        discoCode: 'IKEJA',
        vendType: 'PREPAID',
        meterNo: METER,
        minVendKobo: 50_000n,
        maxVendKobo: 100_000_000n,
        outstandingKobo: 200_000n,
        debtRepaymentKobo: 20_000n,
        name: 'OLUWASEUN ADEBAYO',
        address: '82 Gana Street, Maitama, Abuja',
        orderId: '09640D974327FB3CD9FA708BD85D2374',
      },
    });
    const postpaid = simulatedMeter('ABUJA', POSTPAID_METER);
    assert.equal(postpaid.vendType, 'POSTPAID');
    assert.equal(postpaid.discoCode, 'ABUJA');
    assert.notEqual(
      simulatedMeter('ABUJA', METER).orderId,
      simulatedMeter('IKEJA', METER).orderId,
      'the orderId depends on the category',
    );
  });

  it('follows each documented rule for many meter numbers', () => {
    for (const [index, meterNo] of pseudoRandomNumbers(13, 300).entries()) {
      const number = meterNo.slice(index % 3);
      const meter = simulatedMeter('EKO', number);
      assertWellFormedCustomer(meter);
      assert.equal(meter.meterNo, number);
      assert.equal(meter.vendType, number.startsWith('0') ? 'POSTPAID' : 'PREPAID', number);
      assert.equal(meter.outstandingKobo, BigInt(Number(number[2]) % 5) * 100_000n, number);
      assert.equal(meter.debtRepaymentKobo, meter.outstandingKobo / 10n);
      assert.equal(meter.orderId, sha256Hex(`EKO:${number}`).slice(0, 32).toUpperCase());
      const house = Number(meter.address.split(' ')[0]);
      assert.ok(house >= 1 && house <= 98, meter.address);
      assert.match(meter.address, /, (Abuja|Lagos)$/);
      assert.match(meter.name, /^[A-Z]+ [A-Z]+$/, 'a first and a last name');
    }
    assert.throws(() => simulatedMeter('EKO', '1234567890'), RangeError);
    assert.throws(() => simulatedCard('123456789'), RangeError);
  });

  it('answers the same to the same request from any simulator', async () => {
    const verifications = [
      ...scenarios.notFound,
      ...(scenarios.verifyUnavailable ?? []),
      verifyCard(CARD),
      verifyMeter(METER),
    ];
    for (const request of verifications) {
      assert.deepEqual(await simulator().verify(request), await simulator().verify(request));
    }
    const sales = [
      ...scenarios.successful,
      ...(scenarios.failed ?? []),
      ...(scenarios.pending ?? []),
      ...(scenarios.unavailable ?? []),
    ].map((scenario) => withReference(scenario));
    for (const request of sales) {
      assert.deepEqual(await simulator().purchase(request), await simulator().purchase(request));
      assert.deepEqual(
        await simulator().queryStatus(request),
        await simulator().queryStatus(request),
      );
    }
  });
});

describe('biller simulator refuses malformed requests without throwing', () => {
  // A caller's bug may send any service; the simulator must judge it, not the type system.
  const verifications: readonly [string, BillerVerifyRequest, string][] = [
    [
      'an airtime verification',
      { service: 'AIRTIME' as 'CABLETV', categoryIdentifier: 'MTN', entityNumber: PHONE },
      BILLER_MESSAGES.notVerifiable,
    ],
    ['a blank category', verifyMeter(METER, ' '), BILLER_MESSAGES.noCategory],
    ['a 9-digit card', verifyCard('701234567'), BILLER_MESSAGES.badCard],
    ['a 12-digit card', verifyCard('701234567890'), BILLER_MESSAGES.badCard],
    ['a 10-digit meter', verifyMeter('4571234567'), BILLER_MESSAGES.badMeter],
    ['a 14-digit meter', verifyMeter('45712345678901'), BILLER_MESSAGES.badMeter],
    ['a meter with a letter', verifyMeter('4571234567X'), BILLER_MESSAGES.badMeter],
  ];
  for (const [label, request, message] of verifications) {
    it(`does not find ${label}`, async () => {
      assert.deepEqual(await simulator().verify(request), { kind: 'notFound', message });
    });
  }

  const sales: readonly [string, BillerPurchaseRequest, string][] = [
    [
      'an unknown service',
      withReference({ ...airtime(PHONE), service: 'BETTING' as VasService }),
      BILLER_MESSAGES.unsupportedService,
    ],
    [
      'a blank category',
      withReference({ ...airtime(PHONE), categoryIdentifier: '' }),
      BILLER_MESSAGES.noCategory,
    ],
    [
      'an upper-case reference',
      withReference(airtime(PHONE), REFERENCE.toUpperCase()),
      BILLER_MESSAGES.badReference,
    ],
    [
      'a 31-character reference',
      withReference(airtime(PHONE), REFERENCE.slice(1)),
      BILLER_MESSAGES.badReference,
    ],
    [
      'a zero amount',
      withReference({ ...airtime(PHONE), amountKobo: 0n }),
      BILLER_MESSAGES.badAmount,
    ],
    [
      'a negative amount',
      withReference({ ...airtime(PHONE), amountKobo: -100n }),
      BILLER_MESSAGES.badAmount,
    ],
    ['a 10-digit phone', withReference(airtime('0803123456')), BILLER_MESSAGES.badPhone],
    ['a phone not starting 0', withReference(data('18031234567')), BILLER_MESSAGES.badPhone],
    ['a +234 phone', withReference(airtime('+2348031234567')), BILLER_MESSAGES.badPhone],
    ['a 9-digit card', withReference(cable('701234567')), BILLER_MESSAGES.badCard],
    ['a 10-digit meter', withReference(utility('4571234567')), BILLER_MESSAGES.badMeter],
    [
      '₦499.99 of electricity',
      withReference(utility(METER, 49_999n)),
      BILLER_MESSAGES.outsideVendLimits,
    ],
    [
      '₦1,000,000.01 of electricity',
      withReference(utility(METER, 100_000_001n)),
      BILLER_MESSAGES.outsideVendLimits,
    ],
  ];
  for (const [label, request, message] of sales) {
    it(`declines ${label}, on purchase and status query`, async () => {
      const biller = simulator();
      assert.deepEqual(await biller.purchase(request), { kind: 'failed', message });
      assert.deepEqual(await biller.queryStatus(request), { kind: 'failed', message });
    });
  }

  it('sells electricity at both vend limits', async () => {
    for (const amountKobo of [50_000n, 100_000_000n]) {
      const request = withReference(utility(METER, amountKobo));
      assert.equal((await simulator().purchase(request)).kind, 'successful', String(amountKobo));
    }
  });
});

describe('biller simulator options', () => {
  it('waits the configured latency before every answer', async () => {
    const biller = simulator(100);
    await assertEachAnswersAfter(100, [
      () => biller.verify(verifyMeter(METER)),
      () => biller.verify(verifyCard('7012345030')),
      () => biller.purchase(withReference(utility(METER))),
      () => biller.purchase(withReference(airtime('0803123456'))),
      () => biller.queryStatus(withReference(cable('7012341111'))),
    ]);
  });

  it('refuses a latency outside 0..MAX_BILLER_LATENCY_MS', () => {
    for (const latencyMs of [-1, 1.5, Number.NaN, MAX_BILLER_LATENCY_MS + 1]) {
      assert.throws(() => simulator(latencyMs), RangeError, String(latencyMs));
    }
    assert.doesNotThrow(() => simulator(MAX_BILLER_LATENCY_MS));
    assert.doesNotThrow(() => createBillerSimulator());
  });

  it('is recognisable as a simulator', () => {
    const plain: Biller = { ...simulator() };
    assert.equal(isBillerSimulator(simulator()), true);
    assert.equal(isBillerSimulator(plain), false);
    assert.equal(isBillerSimulator(createUnconfiguredBiller()), false);
  });
});

describe('unconfigured biller', () => {
  it('verifies nothing and sells nothing, so the held money goes back', async () => {
    const biller = createUnconfiguredBiller();
    const message = 'VAS is not configured on this server';
    assert.deepEqual(await biller.verify(verifyMeter(METER)), { kind: 'unavailable', message });
    const request = withReference(utility(METER));
    assert.deepEqual(await biller.purchase(request), { kind: 'failed', message });
    assert.deepEqual(await biller.queryStatus(request), { kind: 'failed', message });
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
