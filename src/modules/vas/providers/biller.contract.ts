import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type {
  Biller,
  BillerPurchaseOutcome,
  BillerPurchaseRequest,
  BillerVerifyOutcome,
  BillerVerifyRequest,
  CardCustomer,
  MeterCustomer,
  VasService,
} from './biller.ts';

/**
 * The behaviour every Biller must show, whatever aggregator sits behind it. The purchase service
 * decides from these answers whether to post, release or keep a customer's held money, so a
 * biller that fails one can sell without charging, charge without selling, or strand a hold.
 * Run it from the biller's own test file.
 *
 * Not checked: a status query for a reference never sold. A stateless biller (the simulator)
 * judges the request it is given, and the purchase service only asks about its own sales.
 */

/** A sale without its reference: the suite gives every sale a fresh one. */
export type PurchaseScenario = Omit<BillerPurchaseRequest, 'reference'>;

export interface BillerContractScenarios {
  /**
   * Sales the biller delivers, at least one; give one per service it sells. The cards and
   * meters of the CABLETV and UTILITY ones must also verify as found.
   */
  readonly successful: readonly [PurchaseScenario, ...PurchaseScenario[]];
  /** Cards and meters nobody has, at least one: verify answers `notFound`. */
  readonly notFound: readonly [BillerVerifyRequest, ...BillerVerifyRequest[]];
  /** Sales the biller declines: `failed`, and never successful afterwards. */
  readonly failed?: readonly PurchaseScenario[];
  /** Sales first answered `pending`. */
  readonly pending?: readonly PurchaseScenario[];
  /** Sales first answered `unavailable` (biller down, timeout). */
  readonly unavailable?: readonly PurchaseScenario[];
  /** Verifications answered `unavailable`. */
  readonly verifyUnavailable?: readonly BillerVerifyRequest[];
  /** A fresh reference (32 lower-case hex, as ours are) for every sale; random unless given. */
  readonly newReference?: () => string;
}

const randomReference = (): string => randomBytes(16).toString('hex');

/** Beneficiaries no biller can sell to or find: wrong length, or not (ASCII) digits. */
const MALFORMED_PHONES = [
  '0803123456',
  '080312345678',
  '23480312345678',
  '0803123456X',
  '0803 1234567',
  '+2348031234567',
  '٠٨٠٣١٢٣٤٥٦٧',
];
const MALFORMED_CARDS = ['123456789', '123456789012', '12345678X0', '12345 67890', '١٢٣٤٥٦٧٨٩٠'];
const MALFORMED_METERS = [
  '1234567890',
  '12345678901234',
  '1234567890X',
  '12345 678901',
  '١٢٣٤٥٦٧٨٩٠١',
];
const MALFORMED_ANY = ['', '   ', '@@@@@@@@@@@'];

const MALFORMED: Readonly<Record<VasService, readonly string[]>> = {
  AIRTIME: [...MALFORMED_PHONES, ...MALFORMED_ANY],
  DATA: [...MALFORMED_PHONES, ...MALFORMED_ANY],
  CABLETV: [...MALFORMED_CARDS, ...MALFORMED_ANY],
  UTILITY: [...MALFORMED_METERS, ...MALFORMED_ANY],
};

export function describeBillerContract(
  name: string,
  makeBiller: () => Promise<Biller> | Biller,
  scenarios: BillerContractScenarios,
): void {
  describe(`Biller contract: ${name}`, () => {
    let built: Biller | undefined;
    before(async () => {
      built = await makeBiller();
    });
    const biller = (): Biller => {
      assert.ok(built, 'the biller is built in before()');
      return built;
    };
    const sale = (scenario: PurchaseScenario): BillerPurchaseRequest => ({
      ...scenario,
      reference: (scenarios.newReference ?? randomReference)(),
    });
    describeVerify(biller, scenarios);
    describeSuccessfulSales(biller, scenarios, sale);
    describeFailedSales(biller, scenarios, sale);
    describeUnsettledSales(biller, scenarios, sale);
  });
}

type Sale = (scenario: PurchaseScenario) => BillerPurchaseRequest;

function describeVerify(biller: () => Biller, scenarios: BillerContractScenarios): void {
  describe('verify', () => {
    const known = scenarios.successful.flatMap(verifyRequestOf);
    if (known.length === 0) {
      it('finds a card or meter', {
        skip: 'no successful CABLETV or UTILITY sale given',
      }, () => {});
    }
    for (const request of known) {
      const kind = request.service === 'UTILITY' ? 'meter' : 'card';
      it(`finds ${describeVerifyRequest(request)} with a well-formed ${kind}`, async () => {
        const outcome = await verify(biller(), request);
        assert.equal(outcome.kind, 'found', verifySummary(outcome));
        assert.equal(outcome.customer.kind, kind);
        if (outcome.customer.kind === 'meter') {
          assert.equal(outcome.customer.meterNo, request.entityNumber, 'the meter asked about');
        }
      });
    }

    for (const request of scenarios.notFound) {
      it(`answers notFound for ${describeVerifyRequest(request)}`, async () => {
        const outcome = await verify(biller(), request);
        assert.equal(outcome.kind, 'notFound', verifySummary(outcome));
      });
    }

    for (const request of scenarios.verifyUnavailable ?? []) {
      it(`answers unavailable for ${describeVerifyRequest(request)}`, async () => {
        const outcome = await verify(biller(), request);
        assert.equal(outcome.kind, 'unavailable', verifySummary(outcome));
      });
    }

    // Templates whose category is valid, so only the number can be why nothing is found.
    for (const template of firstPerService([...known, ...scenarios.notFound])) {
      it(`never finds a malformed ${template.service} number, and answers rather than throws`, async () => {
        for (const entityNumber of MALFORMED[template.service]) {
          const outcome = await verify(biller(), { ...template, entityNumber });
          assert.equal(outcome.kind, 'notFound', `${JSON.stringify(entityNumber)}`);
        }
      });
    }
  });
}

function describeSuccessfulSales(
  biller: () => Biller,
  scenarios: BillerContractScenarios,
  sale: Sale,
): void {
  describe('a successful sale', () => {
    for (const scenario of scenarios.successful) {
      it(`sells ${describeSale(scenario)}, and its status query answers that sale`, async () => {
        const request = sale(scenario);
        const sold = await purchase(biller(), request);
        assert.equal(sold.kind, 'successful', saleSummary(sold));
        assertSameSale(await query(biller(), request), sold);
      });

      it(`answers a resent reference with the first sale (${describeSale(scenario)})`, async () => {
        const request = sale(scenario);
        const first = await purchase(biller(), request);
        assert.equal(first.kind, 'successful', saleSummary(first));
        assertSameSale(await purchase(biller(), request), first);
      });
    }

    it('answers concurrent sales each with its own sale', async () => {
      const requests = [...scenarios.successful, ...scenarios.successful].map(sale);
      const together = await Promise.all(requests.map((request) => purchase(biller(), request)));
      for (const [index, request] of requests.entries()) {
        const sold = together[index];
        assert.ok(sold);
        assert.equal(sold.kind, 'successful', saleSummary(sold));
        assertSameSale(await query(biller(), request), sold);
      }
    });

    // The successful sales with a broken beneficiary: everything else stays valid.
    for (const template of firstPerService(scenarios.successful)) {
      it(`declines a malformed ${template.service} beneficiary, and answers rather than throws`, async () => {
        for (const beneficiary of MALFORMED[template.service]) {
          const request = sale({ ...template, beneficiary });
          const label = JSON.stringify(beneficiary);
          // Only `failed` releases the hold at once: nothing can have been sold.
          assert.equal((await purchase(biller(), request)).kind, 'failed', label);
          assert.notEqual((await query(biller(), request)).kind, 'successful', label);
        }
      });
    }
  });
}

function describeFailedSales(
  biller: () => Biller,
  scenarios: BillerContractScenarios,
  sale: Sale,
): void {
  describe('a declined sale', () => {
    const failed = scenarios.failed ?? [];
    if (failed.length === 0) {
      it('is declined', { skip: 'the biller supplied no failed scenario' }, () => {});
    }
    for (const scenario of failed) {
      it(`declines ${describeSale(scenario)}, and never turns it successful`, async () => {
        const request = sale(scenario);
        const outcome = await purchase(biller(), request);
        assert.equal(outcome.kind, 'failed', saleSummary(outcome));
        // The held money went back: a later success would be a sale nobody paid for.
        assert.notEqual((await query(biller(), request)).kind, 'successful', 'status query');
        assert.notEqual((await purchase(biller(), request)).kind, 'successful', 'resent');
      });
    }
  });
}

function describeUnsettledSales(
  biller: () => Biller,
  scenarios: BillerContractScenarios,
  sale: Sale,
): void {
  const cases = [
    ['pending', scenarios.pending ?? []],
    ['unavailable', scenarios.unavailable ?? []],
  ] as const;
  for (const [kind, requests] of cases) {
    describe(`a sale answered ${kind}`, () => {
      if (requests.length === 0) {
        it(`answers ${kind}`, { skip: `the biller supplied no ${kind} scenario` }, () => {});
      }
      for (const scenario of requests) {
        it(`answers ${kind} for ${describeSale(scenario)}; a settled status stays`, async () => {
          const request = sale(scenario);
          const outcome = await purchase(biller(), request);
          assert.equal(outcome.kind, kind, saleSummary(outcome));
          const status = await query(biller(), request);
          if (status.kind === 'successful') {
            assertSameSale(await query(biller(), request), status);
          } else if (status.kind === 'failed') {
            assert.equal((await query(biller(), request)).kind, 'failed', 'a failure stays');
          }
        });
      }
    });
  }
}

/** The card or meter a successful CABLETV or UTILITY sale went to: it must verify. */
function verifyRequestOf(scenario: PurchaseScenario): BillerVerifyRequest[] {
  const { service, categoryIdentifier, beneficiary } = scenario;
  return service === 'CABLETV' || service === 'UTILITY'
    ? [{ service, categoryIdentifier, entityNumber: beneficiary }]
    : [];
}

function firstPerService<T extends { readonly service: VasService }>(requests: readonly T[]): T[] {
  const first = new Map<VasService, T>();
  for (const request of requests) {
    if (!first.has(request.service)) {
      first.set(request.service, request);
    }
  }
  return [...first.values()];
}

/** Both successful and, for electricity, the same token: the customer keeps the first one. */
function assertSameSale(outcome: BillerPurchaseOutcome, sold: BillerPurchaseOutcome): void {
  assert.equal(outcome.kind, 'successful', saleSummary(outcome));
  assert.ok(sold.kind === 'successful');
  assert.equal(outcome.token, sold.token, 'the token of the first sale');
}

async function verify(biller: Biller, request: BillerVerifyRequest): Promise<BillerVerifyOutcome> {
  const outcome = await answered(() => biller.verify(request), 'verify');
  assertWellFormedVerifyOutcome(outcome);
  return outcome;
}

async function purchase(
  biller: Biller,
  request: BillerPurchaseRequest,
): Promise<BillerPurchaseOutcome> {
  const outcome = await answered(() => biller.purchase(request), 'purchase');
  assertWellFormedPurchaseOutcome(request, outcome);
  return outcome;
}

async function query(
  biller: Biller,
  request: BillerPurchaseRequest,
): Promise<BillerPurchaseOutcome> {
  const outcome = await answered(() => biller.queryStatus(request), 'queryStatus');
  assertWellFormedPurchaseOutcome(request, outcome);
  return outcome;
}

/** Billers answer biller-side problems as outcomes; a rejection would strand the caller's hold. */
async function answered<T>(call: () => Promise<T>, method: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    assert.fail(`${method} threw instead of answering: ${String(error)}`);
  }
}

function describeSale(scenario: PurchaseScenario): string {
  return `${scenario.service} ${scenario.categoryIdentifier} to ${JSON.stringify(scenario.beneficiary)}`;
}

function describeVerifyRequest(request: BillerVerifyRequest): string {
  return `${request.service} ${request.categoryIdentifier} ${JSON.stringify(request.entityNumber)}`;
}

function saleSummary(outcome: BillerPurchaseOutcome): string {
  return outcome.kind === 'successful' ? 'successful' : `${outcome.kind}: ${outcome.message}`;
}

function verifySummary(outcome: BillerVerifyOutcome): string {
  return outcome.kind === 'found'
    ? `found a ${outcome.customer.kind}`
    : `${outcome.kind}: ${outcome.message}`;
}

export function assertWellFormedPurchaseOutcome(
  request: BillerPurchaseRequest,
  outcome: BillerPurchaseOutcome,
): void {
  assert.ok(
    ['successful', 'failed', 'pending', 'unavailable'].includes(outcome.kind),
    `kind ${outcome.kind}`,
  );
  if (outcome.kind !== 'successful') {
    assertText(outcome.message, `a ${outcome.kind} answer's message`);
    return;
  }
  // The customer cannot use electricity without its token.
  if (request.service === 'UTILITY') {
    assert.ok(outcome.token !== undefined, 'a successful UTILITY sale carries a token');
  }
  if (outcome.token !== undefined) {
    assertText(outcome.token, 'token');
  }
  if (outcome.receiverName !== undefined && outcome.receiverName !== null) {
    assertText(outcome.receiverName, 'receiverName');
  }
}

export function assertWellFormedVerifyOutcome(outcome: BillerVerifyOutcome): void {
  assert.ok(['found', 'notFound', 'unavailable'].includes(outcome.kind), `kind ${outcome.kind}`);
  if (outcome.kind === 'found') {
    assertWellFormedCustomer(outcome.customer);
  } else {
    assertText(outcome.message, `a ${outcome.kind} answer's message`);
  }
}

const ORDER_ID = /^[0-9A-F]{32}$/;

/** Customers carry no obviously invalid data: the purchase service shows and checks them as is. */
export function assertWellFormedCustomer(customer: MeterCustomer | CardCustomer): void {
  switch (customer.kind) {
    case 'card':
      assertText(customer.name, 'card name');
      return;
    case 'meter':
      assertText(customer.discoCode, 'discoCode');
      assert.ok(['PREPAID', 'POSTPAID'].includes(customer.vendType), customer.vendType);
      assert.match(customer.meterNo, /^\d+$/, 'meterNo');
      for (const field of [
        'minVendKobo',
        'maxVendKobo',
        'outstandingKobo',
        'debtRepaymentKobo',
      ] as const) {
        assert.equal(typeof customer[field], 'bigint', `${field} in bigint kobo`);
        assert.ok(customer[field] >= 0n, `${field} is not negative`);
      }
      assert.ok(customer.minVendKobo > 0n, 'minVendKobo is positive');
      assert.ok(customer.minVendKobo <= customer.maxVendKobo, 'minVendKobo <= maxVendKobo');
      assertText(customer.name, 'meter name');
      assertText(customer.address, 'meter address');
      assert.match(customer.orderId, ORDER_ID, 'orderId is 32 upper-case hex');
      return;
    default:
      assert.fail(`unknown customer kind ${(customer as { kind: unknown }).kind}`);
  }
}

function assertText(value: unknown, field: string): void {
  assert.equal(typeof value, 'string', field);
  assert.ok(
    typeof value === 'string' && value.trim() !== '' && value === value.trim(),
    `${field} ${JSON.stringify(value)}`,
  );
}
