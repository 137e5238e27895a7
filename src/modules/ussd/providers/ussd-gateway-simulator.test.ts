import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../../../test/test-db.ts';
import { AppError, databaseUnavailable } from '../../../errors/app-error.ts';
import { ERROR_CODES } from '../../../errors/error-codes.ts';
import { ManualClock } from '../../../shared/clock.ts';
import type { Kobo } from '../../../shared/money.ts';
import { USSD_BANKS } from '../ussd-banks.ts';
import {
  createDatabaseReferenceStore,
  type SimulatorReferenceStore,
} from './simulator-references.ts';
import { createUnconfiguredUssdGateway } from './unconfigured-ussd-gateway.ts';
import {
  describeUssdGatewayContract,
  type UssdGatewayContractScenarios,
} from './ussd-gateway.contract.ts';
import type {
  UssdPaymentHandler,
  UssdPaymentNotice,
  UssdReferenceRequest,
} from './ussd-gateway.ts';
import {
  createUssdGatewaySimulator,
  isUssdGatewaySimulator,
  SANDBOX_USSD_PAYER,
  USSD_MAGIC_KOBO,
  type UssdGatewaySimulator,
} from './ussd-gateway-simulator.ts';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const clock = new ManualClock(NOW);
const THIRTY_MINUTES_MS = 30 * 60 * 1000;

const request = (amountKobo: Kobo = 150_000n): UssdReferenceRequest => ({
  amountKobo,
  merchantName: 'ACME LTD',
  expiresAt: new Date(clock.now().getTime() + THIRTY_MINUTES_MS),
});
/** NGN 1,000 and the given kobo: the kobo pick the sandbox's outcome. */
const withKobo = (kobo: bigint): Kobo => 100_000n + kobo;

const scenarios: UssdGatewayContractScenarios<UssdGatewaySimulator> = {
  payable: () => request(),
  knowsUnissuedReferences: true,
  pay: (gateway, payment) => gateway.dial(payment),
  payerBanks: USSD_BANKS.map((bank) => bank.ussdBankCode),
  issueUnavailable: [request(withKobo(USSD_MAGIC_KOBO.issueUnavailable)), request(55n)],
};

describeUssdGatewayContract(
  'USSD gateway simulator',
  () => createUssdGatewaySimulator({ clock }),
  scenarios,
);

describe('USSD gateway simulator on its database reference store', () => {
  let testDb: TestDb;
  const store = (): SimulatorReferenceStore => createDatabaseReferenceStore(testDb.db);
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb?.close());

  describeUssdGatewayContract(
    'USSD gateway simulator (database references)',
    () => createUssdGatewaySimulator({ clock, references: store() }),
    scenarios,
  );

  it('still knows every reference and payment after a restart', async () => {
    const { gateway } = simulator(store());
    const paid = await issue(gateway);
    const lost = await issue(gateway, withKobo(USSD_MAGIC_KOBO.noticeLost));
    const open = await issue(gateway);
    const dialled = await gateway.dial({ reference: paid, ussdBankCode: '737' });
    const unanswered = await gateway.dial({ reference: lost, ussdBankCode: '7111' });
    assert.equal(dialled.kind, 'paid');
    assert.equal(unanswered.kind, 'noticeLost');

    const restarted = createUssdGatewaySimulator({ clock, references: store() });
    // Every field back as dialled: amounts as bigint, times to the millisecond.
    assert.deepEqual(await restarted.queryPayment(paid), dialled);
    assert.deepEqual(await restarted.queryPayment(lost), { ...unanswered, kind: 'paid' });
    assert.deepEqual(await restarted.queryPayment(open), { kind: 'unpaid' });
    const rows = await testDb.db.query<{ merchant_name: string; amount_kobo: bigint }>(
      'SELECT merchant_name, amount_kobo FROM ussd_simulator_references WHERE reference = $1',
      [open],
    );
    assert.deepEqual(rows, [{ merchant_name: 'ACME LTD', amount_kobo: 150_000n }]);
  });
});

/** A fresh simulator whose handler records every notice and accepts it, unless answerWith says otherwise. */
function simulator(references?: SimulatorReferenceStore) {
  const gateway = createUssdGatewaySimulator(
    references === undefined ? { clock } : { clock, references },
  );
  const notices: UssdPaymentNotice[] = [];
  let answer: UssdPaymentHandler = async () => {};
  gateway.onPayment(async (notice) => {
    notices.push(notice);
    return answer(notice);
  });
  return {
    gateway,
    notices,
    answerWith(next: UssdPaymentHandler) {
      answer = next;
    },
  };
}

async function issue(gateway: UssdGatewaySimulator, amountKobo?: Kobo): Promise<string> {
  const outcome = await gateway.issueReference(request(amountKobo));
  assert.equal(outcome.kind, 'issued');
  return outcome.reference;
}

/** Judges a notice as the bank does: the amount asked, and completed before the expiry. */
function bankLike(reference: UssdReferenceRequest): UssdPaymentHandler {
  return async (notice) => {
    if (notice.paidAt > reference.expiresAt) {
      throw new AppError('USSD_REFERENCE_CLOSED');
    }
    if (notice.amountKobo !== reference.amountKobo) {
      throw new AppError('USSD_AMOUNT_MISMATCH');
    }
  };
}

/** GTBank's NIP code (000013), then the clock's yymmddHHMMSS, then twelve digits. */
const GTBANK_SESSION_NOW = /^000013260302090000\d{12}$/;

describe('USSD gateway simulator payments', () => {
  it('pays any other amount at once, as the customer dialled it', async () => {
    const { gateway, notices } = simulator();
    const reference = await issue(gateway, withKobo(50n));
    const outcome = await gateway.dial({ reference, ussdBankCode: '*737#' });
    assert.equal(outcome.kind, 'paid');
    assert.match(outcome.notice.sessionId, GTBANK_SESSION_NOW);
    assert.deepEqual(outcome.notice, {
      reference,
      sessionId: outcome.notice.sessionId,
      ussdBankCode: '737',
      amountKobo: withKobo(50n),
      payer: SANDBOX_USSD_PAYER,
      paidAt: NOW,
    });
    assert.deepEqual(notices, [outcome.notice]);
    assert.deepEqual(await gateway.queryPayment(reference), {
      kind: 'paid',
      notice: outcome.notice,
    });
  });

  it('declines .51 without telling the bank, and it can be dialled again', async () => {
    const { gateway, notices } = simulator();
    const reference = await issue(gateway, withKobo(USSD_MAGIC_KOBO.declined));
    const declined = { kind: 'declined', message: 'Insufficient funds' };
    assert.deepEqual(await gateway.dial({ reference, ussdBankCode: '737' }), declined);
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'unpaid' });
    // Nothing moved, so the reference is still open: a second try reaches the customer's bank.
    assert.deepEqual(await gateway.dial({ reference, ussdBankCode: '966' }), declined);
    assert.deepEqual(notices, []);
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'unpaid' });
  });

  it('loses the notice of .52, but its status query answers the payment', async () => {
    const { gateway, notices } = simulator();
    const reference = await issue(gateway, withKobo(USSD_MAGIC_KOBO.noticeLost));
    const outcome = await gateway.dial({ reference, ussdBankCode: '737' });
    assert.equal(outcome.kind, 'noticeLost');
    assert.match(outcome.notice.sessionId, GTBANK_SESSION_NOW);
    assert.equal(outcome.notice.amountKobo, withKobo(USSD_MAGIC_KOBO.noticeLost));
    assert.deepEqual(notices, [], 'the handler never heard of it');
    assert.deepEqual(await gateway.queryPayment(reference), {
      kind: 'paid',
      notice: outcome.notice,
    });
  });

  it('completes .53 a second after the expiry: the bank refuses, the money goes back', async () => {
    const { gateway, notices, answerWith } = simulator();
    const asked = request(withKobo(USSD_MAGIC_KOBO.paidAfterExpiry));
    const issued = await gateway.issueReference(asked);
    assert.equal(issued.kind, 'issued');
    answerWith(bankLike(asked));
    const outcome = await gateway.dial({ reference: issued.reference, ussdBankCode: '737' });
    assert.equal(outcome.kind, 'reversed');
    assert.equal(outcome.code, 'USSD_REFERENCE_CLOSED');
    assert.equal(outcome.notice.paidAt.getTime(), asked.expiresAt.getTime() + 1000);
    assert.equal(outcome.notice.amountKobo, asked.amountKobo, 'only the time is wrong');
    assert.deepEqual(notices, [outcome.notice]);
    assert.deepEqual(await gateway.queryPayment(issued.reference), { kind: 'unpaid' });
  });

  it('debits NGN 1 less on .54: the bank refuses the amount, the money goes back', async () => {
    const { gateway, notices, answerWith } = simulator();
    const asked = request(withKobo(USSD_MAGIC_KOBO.wrongAmount));
    const issued = await gateway.issueReference(asked);
    assert.equal(issued.kind, 'issued');
    answerWith(bankLike(asked));
    const outcome = await gateway.dial({ reference: issued.reference, ussdBankCode: '737' });
    assert.equal(outcome.kind, 'reversed');
    assert.equal(outcome.code, 'USSD_AMOUNT_MISMATCH');
    assert.equal(outcome.notice.amountKobo, asked.amountKobo - 100n);
    assert.deepEqual(outcome.notice.paidAt, NOW, 'only the amount is wrong');
    assert.deepEqual(notices, [outcome.notice]);
    assert.deepEqual(await gateway.queryPayment(issued.reference), { kind: 'unpaid' });
  });

  it('debits the amount the dial gives, over the reference’s and over .54', async () => {
    const { gateway, notices } = simulator();
    const plain = await issue(gateway, 150_000n);
    const more = await gateway.dial({
      reference: plain,
      ussdBankCode: '737',
      amountKobo: 200_000n,
    });
    assert.equal(more.kind, 'paid');
    assert.equal(more.notice.amountKobo, 200_000n);
    const query = await gateway.queryPayment(plain);
    assert.equal(query.kind, 'paid');
    assert.equal(query.notice.amountKobo, 200_000n, 'the gateway keeps what was debited');

    const short = await issue(gateway, withKobo(USSD_MAGIC_KOBO.wrongAmount));
    const exact = await gateway.dial({
      reference: short,
      ussdBankCode: '737',
      amountKobo: withKobo(USSD_MAGIC_KOBO.wrongAmount),
    });
    assert.equal(exact.kind, 'paid');
    assert.equal(exact.notice.amountKobo, withKobo(USSD_MAGIC_KOBO.wrongAmount));
    assert.equal(notices.length, 2);
  });

  it('reverses a payment the handler refuses with a 4xx AppError, and keeps it open', async () => {
    const { gateway, notices, answerWith } = simulator();
    const reference = await issue(gateway);
    answerWith(async () => {
      throw new AppError('USSD_REFERENCE_CLOSED');
    });
    const outcome = await gateway.dial({ reference, ussdBankCode: '737' });
    assert.equal(outcome.kind, 'reversed');
    assert.deepEqual(outcome, {
      kind: 'reversed',
      notice: notices[0],
      code: 'USSD_REFERENCE_CLOSED',
      message: ERROR_CODES.USSD_REFERENCE_CLOSED.message,
    });
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'unpaid' });

    // Nothing was recorded, so a later payment the bank accepts is the one the query answers.
    answerWith(async () => {});
    const paid = await gateway.dial({ reference, ussdBankCode: '737' });
    assert.equal(paid.kind, 'paid');
    assert.notEqual(paid.notice.sessionId, outcome.notice.sessionId);
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'paid', notice: paid.notice });
  });

  for (const [label, failure] of [
    ['a plain Error', new Error('connection reset')],
    ['a 5xx AppError', databaseUnavailable()],
  ] as const) {
    it(`rethrows ${label} from the handler, keeping the payment for status queries`, async () => {
      const { gateway, notices, answerWith } = simulator();
      const reference = await issue(gateway);
      answerWith(async () => {
        throw failure;
      });
      await assert.rejects(
        gateway.dial({ reference, ussdBankCode: '737' }),
        (error) => error === failure,
      );
      assert.equal(notices.length, 1);
      // The customer was debited and the bank never answered: the worker's query settles it.
      assert.deepEqual(await gateway.queryPayment(reference), { kind: 'paid', notice: notices[0] });
    });
  }

  it('answers unknownReference for a reference it never issued, telling nobody', async () => {
    const { gateway, notices } = simulator();
    await issue(gateway);
    assert.deepEqual(await gateway.dial({ reference: '0000000000', ussdBankCode: '737' }), {
      kind: 'unknownReference',
    });
    assert.deepEqual(await gateway.queryPayment('0000000000'), { kind: 'unknown' });
    assert.deepEqual(notices, []);
  });

  it('keeps the first payment when a paid reference is dialled again', async () => {
    const { gateway, notices } = simulator();
    const reference = await issue(gateway);
    const first = await gateway.dial({ reference, ussdBankCode: '737' });
    const second = await gateway.dial({ reference, ussdBankCode: '901' });
    assert.equal(first.kind, 'paid');
    assert.equal(second.kind, 'paid', 'the handler accepted both');
    assert.equal(notices.length, 2);
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'paid', notice: first.notice });
  });

  it('refuses a bank with no listed USSD code, and records nothing', async () => {
    const { gateway, notices } = simulator();
    const reference = await issue(gateway);
    await assert.rejects(gateway.dial({ reference, ussdBankCode: '123' }), /USSD code 123/);
    assert.deepEqual(notices, []);
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'unpaid' });
  });

  it('refuses to pay with no handler registered, rather than drop the notice', async () => {
    const gateway = createUssdGatewaySimulator({ clock });
    const reference = await issue(gateway);
    await assert.rejects(
      gateway.dial({ reference, ussdBankCode: '737' }),
      /no USSD payment handler/,
    );
    assert.deepEqual(await gateway.queryPayment(reference), { kind: 'unpaid' });
  });
});

describe('USSD gateway simulator references', () => {
  it('cannot issue .55: the gateway is unavailable', async () => {
    const { gateway } = simulator();
    for (const amountKobo of [withKobo(USSD_MAGIC_KOBO.issueUnavailable), 55n, 999_955n]) {
      assert.deepEqual(await gateway.issueReference(request(amountKobo)), {
        kind: 'unavailable',
        message: 'The USSD gateway is not available.',
      });
    }
  });

  it('issues every other amount, including the other magic ones', async () => {
    const { gateway } = simulator();
    for (const kobo of [0n, 1n, 50n, 51n, 52n, 53n, 54n, 56n, 99n]) {
      const outcome = await gateway.issueReference(request(withKobo(kobo)));
      assert.equal(outcome.kind, 'issued', String(kobo));
      assert.deepEqual(await gateway.queryPayment(outcome.reference), { kind: 'unpaid' });
    }
  });

  it('knows only its own references: another simulator answers unknown', async () => {
    const reference = await issue(simulator().gateway);
    assert.deepEqual(await simulator().gateway.queryPayment(reference), { kind: 'unknown' });
  });

  it('is recognisable as a simulator', () => {
    assert.equal(isUssdGatewaySimulator(createUssdGatewaySimulator({ clock })), true);
    assert.equal(isUssdGatewaySimulator(createUnconfiguredUssdGateway()), false);
  });
});
