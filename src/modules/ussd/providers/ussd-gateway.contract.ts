import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { AppError } from '../../../errors/app-error.ts';
import { findUssdBank, USSD_BANKS } from '../ussd-banks.ts';
import {
  USSD_REFERENCE,
  type UssdGateway,
  type UssdIssueOutcome,
  type UssdPaymentNotice,
  type UssdQueryOutcome,
  type UssdReferenceRequest,
} from './ussd-gateway.ts';

/**
 * The behaviour every UssdGateway must show, whatever aggregator sits behind it. The USSD service
 * credits a client's account from a notice, and settles a reference whose notice never came from
 * a status query, so a gateway that fails one can pay a client twice, never, or for money the
 * customer got back. Run it from the gateway's own test file.
 */

/** A customer of the bank with this USSD code paying a reference. */
export interface UssdPayment {
  readonly reference: string;
  readonly ussdBankCode: string;
}

export interface UssdGatewayContractScenarios<G extends UssdGateway> {
  /** A request the gateway issues a payable reference for; called for every reference. */
  readonly payable: () => UssdReferenceRequest;
  /** How many references the distinctness check issues; 200 unless given. */
  readonly distinctIssues?: number;
  /** True when the gateway answers `unknown` for a reference it never issued. */
  readonly knowsUnissuedReferences?: boolean;
  /**
   * A customer pays the reference its full amount. Resolves once the gateway has handed the
   * notice to the payment handler and had its answer, whether it accepted or refused. Leave it
   * out for a gateway no test can pay: the payment tests are then skipped.
   */
  readonly pay?: (gateway: G, payment: UssdPayment) => Promise<unknown>;
  /** The banks payments come from, by USSD code; the first listed bank unless given. */
  readonly payerBanks?: readonly string[];
  /** Requests the gateway answers `unavailable` for. */
  readonly issueUnavailable?: readonly UssdReferenceRequest[];
}

const DEFAULT_DISTINCT_ISSUES = 200;

export function describeUssdGatewayContract<G extends UssdGateway>(
  name: string,
  makeGateway: () => Promise<G> | G,
  scenarios: UssdGatewayContractScenarios<G>,
): void {
  describe(`UssdGateway contract: ${name}`, () => {
    let built: G | undefined;
    const payments = new PaymentDesk();
    before(async () => {
      built = await makeGateway();
      built.onPayment((notice) => payments.handle(notice));
    });
    const gateway = (): G => {
      assert.ok(built, 'the gateway is built in before()');
      return built;
    };
    const issue = async (): Promise<string> => {
      const outcome = await issueReference(gateway(), scenarios.payable());
      assert.equal(outcome.kind, 'issued', issueSummary(outcome));
      return outcome.reference;
    };
    describeIssue(gateway, scenarios);
    describeQueries(gateway, scenarios, issue);
    describePayments(gateway, scenarios, issue, payments);
  });
}

/** The contract's payment handler: records every notice, and refuses the references it is told. */
class PaymentDesk {
  readonly notices: UssdPaymentNotice[] = [];
  private readonly refusals = new Map<string, AppError>();

  async handle(notice: UssdPaymentNotice): Promise<void> {
    this.notices.push(notice);
    const refusal = this.refusals.get(notice.reference);
    if (refusal !== undefined) {
      throw refusal;
    }
  }

  refuse(reference: string): void {
    this.refusals.set(reference, new AppError('USSD_REFERENCE_CLOSED'));
  }

  noticesFor(reference: string): UssdPaymentNotice[] {
    return this.notices.filter((notice) => notice.reference === reference);
  }
}

function describeIssue<G extends UssdGateway>(
  gateway: () => G,
  scenarios: UssdGatewayContractScenarios<G>,
): void {
  describe('issueReference', () => {
    const count = scenarios.distinctIssues ?? DEFAULT_DISTINCT_ISSUES;
    it(`issues ${count} references at once, each ten digits and none twice`, async () => {
      const outcomes = await Promise.all(
        Array.from({ length: count }, () => issueReference(gateway(), scenarios.payable())),
      );
      const references = outcomes.map((outcome) => {
        assert.equal(outcome.kind, 'issued', issueSummary(outcome));
        return outcome.reference;
      });
      // Two payments on one reference would go to one account, whoever they were for.
      assert.equal(new Set(references).size, count, 'distinct references');
    });

    const unavailable = scenarios.issueUnavailable ?? [];
    if (unavailable.length === 0) {
      it('answers unavailable', { skip: 'the gateway supplied no unavailable scenario' }, () => {});
    }
    for (const request of unavailable) {
      it(`answers unavailable with a message for ${describeRequest(request)}`, async () => {
        const outcome = await issueReference(gateway(), request);
        assert.equal(outcome.kind, 'unavailable', issueSummary(outcome));
      });
    }
  });
}

function describeQueries<G extends UssdGateway>(
  gateway: () => G,
  scenarios: UssdGatewayContractScenarios<G>,
  issue: () => Promise<string>,
): void {
  describe('queryPayment', () => {
    it('answers unpaid for an issued reference nobody paid, every time', async () => {
      const reference = await issue();
      assert.deepEqual(await queryPayment(gateway(), reference), { kind: 'unpaid' });
      assert.deepEqual(await queryPayment(gateway(), reference), { kind: 'unpaid' });
    });

    if (scenarios.knowsUnissuedReferences !== true) {
      it('answers unknown for a reference never issued', {
        skip: 'the gateway cannot tell a reference it never issued',
      }, () => {});
      return;
    }
    it('answers unknown for references never issued', async () => {
      const issued = new Set(await Promise.all([issue(), issue(), issue()]));
      for (const reference of neverIssued(issued, 20)) {
        const outcome = await queryPayment(gateway(), reference);
        assert.deepEqual(outcome, { kind: 'unknown' }, reference);
      }
    });
  });
}

function describePayments<G extends UssdGateway>(
  gateway: () => G,
  scenarios: UssdGatewayContractScenarios<G>,
  issue: () => Promise<string>,
  payments: PaymentDesk,
): void {
  describe('a payment', () => {
    const { pay } = scenarios;
    if (pay === undefined) {
      it('is reported', { skip: 'the gateway supplied no way to pay a reference' }, () => {});
      return;
    }
    const banks = scenarios.payerBanks ?? [firstBank()];
    const payAndExpectOneNotice = async (reference: string, ussdBankCode: string) => {
      const earlier = payments.noticesFor(reference).length;
      await pay(gateway(), { reference, ussdBankCode });
      const notices = payments.noticesFor(reference);
      assert.equal(notices.length, earlier + 1, 'the handler got one notice for the payment');
      const notice = notices.at(-1);
      assert.ok(notice);
      return notice;
    };

    for (const ussdBankCode of banks) {
      it(`from *${ussdBankCode}# reaches the handler, and its status query answers it`, async () => {
        const request = scenarios.payable();
        const outcome = await issueReference(gateway(), request);
        assert.equal(outcome.kind, 'issued', issueSummary(outcome));
        const notice = await payAndExpectOneNotice(outcome.reference, ussdBankCode);
        assertNoticeOf(notice, { reference: outcome.reference, ussdBankCode }, request.amountKobo);
        assertSamePayment(await queryPayment(gateway(), outcome.reference), notice);
      });
    }

    it('gives every payment its own session id', async () => {
      const [first, second] = [await issue(), await issue()];
      const bank = banks[0] ?? firstBank();
      const one = await payAndExpectOneNotice(first, bank);
      const other = await payAndExpectOneNotice(second, bank);
      assert.notEqual(one.sessionId, other.sessionId);
    });

    it('never reports paid a payment the handler refused', async () => {
      const reference = await issue();
      payments.refuse(reference);
      await payAndExpectOneNotice(reference, banks[0] ?? firstBank());
      // The customer got the money back: settling the reference would credit it a second time.
      for (let query = 0; query < 3; query += 1) {
        const outcome = await queryPayment(gateway(), reference);
        assert.notEqual(outcome.kind, 'paid', `status query ${query + 1}`);
      }
    });

    it('keeps answering the first payment after a second one is refused', async () => {
      const reference = await issue();
      const bank = banks[0] ?? firstBank();
      const first = await payAndExpectOneNotice(reference, bank);
      payments.refuse(reference);
      // A gateway may refuse a paid reference itself, without a notice.
      await pay(gateway(), { reference, ussdBankCode: bank });
      assertSamePayment(await queryPayment(gateway(), reference), first);
    });
  });
}

function firstBank(): string {
  const first = USSD_BANKS[0];
  assert.ok(first, 'a USSD bank is listed');
  return first.ussdBankCode;
}

/** Ten-digit references not among those issued; random, so a gateway cannot special-case one. */
function neverIssued(issued: ReadonlySet<string>, count: number): string[] {
  const references = new Set<string>();
  while (references.size < count) {
    const reference = randomInt(0, 10_000_000_000).toString().padStart(10, '0');
    if (!issued.has(reference)) {
      references.add(reference);
    }
  }
  return [...references];
}

function assertNoticeOf(notice: UssdPaymentNotice, payment: UssdPayment, amountKobo: bigint): void {
  const bank = findUssdBank(payment.ussdBankCode);
  assert.ok(bank, `a listed bank has the USSD code ${payment.ussdBankCode}`);
  assert.equal(notice.reference, payment.reference, 'reference');
  assert.equal(notice.amountKobo, amountKobo, 'amount in kobo');
  assert.equal(notice.ussdBankCode, bank.ussdBankCode, 'the bank dialled');
  // The payer's bank is read from the session id, as NIP session ids carry it.
  assert.match(notice.sessionId, /^\d{30}$/, 'a 30-digit session id');
  assert.ok(
    notice.sessionId.startsWith(bank.bankCode),
    `session ${notice.sessionId} starts with ${bank.bankName}'s NIP code ${bank.bankCode}`,
  );
  assert.ok(notice.paidAt instanceof Date && !Number.isNaN(notice.paidAt.getTime()), 'paidAt');
  assert.ok(notice.payer.accountName.trim() !== '', 'payer name');
  assert.match(notice.payer.accountNumber, /^\d{10}$/, 'payer NUBAN');
}

/** The status query answers the payment the notice reported, not merely some payment. */
function assertSamePayment(outcome: UssdQueryOutcome, notice: UssdPaymentNotice): void {
  assert.equal(outcome.kind, 'paid', querySummary(outcome));
  assert.equal(outcome.notice.sessionId, notice.sessionId, 'the same session');
  assert.equal(outcome.notice.reference, notice.reference, 'reference');
  assert.equal(outcome.notice.amountKobo, notice.amountKobo, 'amount in kobo');
  assert.equal(outcome.notice.ussdBankCode, notice.ussdBankCode, 'the bank dialled');
  assert.equal(outcome.notice.paidAt.getTime(), notice.paidAt.getTime(), 'paidAt');
}

async function issueReference(
  gateway: UssdGateway,
  request: UssdReferenceRequest,
): Promise<UssdIssueOutcome> {
  const outcome = await answered(() => gateway.issueReference(request), 'issueReference');
  assert.ok(['issued', 'unavailable'].includes(outcome.kind), `kind ${outcome.kind}`);
  if (outcome.kind === 'issued') {
    assert.match(outcome.reference, USSD_REFERENCE, 'the reference is what a customer dials');
  } else {
    assertText(outcome.message, 'an unavailable answer’s message');
  }
  return outcome;
}

async function queryPayment(gateway: UssdGateway, reference: string): Promise<UssdQueryOutcome> {
  const outcome = await answered(() => gateway.queryPayment(reference), 'queryPayment');
  assert.ok(['paid', 'unpaid', 'unknown', 'unavailable'].includes(outcome.kind), outcome.kind);
  if (outcome.kind === 'unavailable') {
    assertText(outcome.message, 'an unavailable answer’s message');
  }
  return outcome;
}

/** Gateway-side problems are answers; a rejection would fail the client's request or the worker. */
async function answered<T>(call: () => Promise<T>, method: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    assert.fail(`${method} threw instead of answering: ${String(error)}`);
  }
}

function assertText(value: unknown, label: string): void {
  assert.equal(typeof value, 'string', label);
  assert.ok((value as string).trim() !== '', `${label} is not blank`);
}

function describeRequest(request: UssdReferenceRequest): string {
  return `${request.amountKobo} kobo for ${JSON.stringify(request.merchantName)}`;
}

function issueSummary(outcome: UssdIssueOutcome): string {
  return outcome.kind === 'issued' ? 'issued' : `${outcome.kind}: ${outcome.message}`;
}

function querySummary(outcome: UssdQueryOutcome): string {
  return outcome.kind === 'unavailable' ? `unavailable: ${outcome.message}` : outcome.kind;
}
