// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { createUssdStatusQueryWorker } from '../../src/modules/ussd/index.ts';
import { accountBalance, createUssdReference, dialUssd, signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

type Headers = Record<string, string>;

const CALLBACK_URL = 'https://merchant.example.com/hooks/ussd';
/** Banks a customer can dial from (GET /ussd-payment/banks), each its own payer. */
const DIAL_BANKS = ['737', '901', '966', '894', '919', '822', '770', '329', '833', '909', '826'];

/**
 * What a payment of `amountKobo` leaves on the settlement account, by the documented USSD
 * charges (defaults): a 0.5% fee, half up to the kobo, at most ₦300, plus 7.5% VAT on the fee.
 * Every amount here is below ₦10,000, so no stamp duty.
 */
function netKobo(amountKobo: number): number {
  const fee = Math.min(Math.floor((amountKobo * 50 + 5_000) / 10_000), 30_000);
  const vat = Math.floor((fee * 750 + 5_000) / 10_000);
  return amountKobo - fee - vat;
}

interface DialAnswer {
  outcome: 'paid' | 'declined' | 'noticeLost' | 'reversed';
  sessionId: string;
  code?: string;
  reference: { status: string; payment: { sessionId: string } | null };
}

interface WireReference {
  reference: string;
  status: string;
  amount: number;
  payment: {
    sessionId: string;
    transferId: string;
    amount: number;
    fees: number;
    vat: number;
    ussdBankCode: string;
  } | null;
}

describe('USSD payments under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let merchant: { headers: Headers; accountNumber: string };
  /** Every inbound-credit batch call: the USSD reference ids its items claim, in order. */
  const receiveBatches: string[][] = [];

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 40 });
    const own = await signedInClient(testApp, 'Merchant Ltd', 0);
    merchant = { headers: own.headers, accountNumber: own.client.mainAccountNumber };
    // Watch the group commit's calls on the services' own database handle.
    const query = testApp.db.query.bind(testApp.db);
    testApp.db.query = ((sql: string, params?: readonly unknown[]) => {
      if (sql.includes('apply_batch($1') && params?.[0] === 'transfer_receive_one') {
        const items = JSON.parse(String(params[2])) as {
          claims?: { handler: string; referenceId?: string }[];
        }[];
        receiveBatches.push(
          items.flatMap((item) =>
            (item.claims ?? []).flatMap((claim) =>
              claim.handler === 'ussd_reference_collect' ? [claim.referenceId ?? ''] : [],
            ),
          ),
        );
      }
      return query(sql, params as never);
    }) as typeof testApp.db.query;
  });
  after(() => testApp?.close());

  async function balanceKobo(accountNumber = merchant.accountNumber): Promise<number> {
    const naira = await accountBalance(testApp.app, merchant.headers, accountNumber);
    assert.ok(naira !== undefined, `account ${accountNumber} is listed`);
    return Math.round(naira * 100);
  }

  const create = (extra: Record<string, unknown> = {}, accountNumber = merchant.accountNumber) =>
    createUssdReference(testApp.app, merchant.headers, accountNumber, extra);

  async function dial(reference: string, ussdBankCode?: string): Promise<DialAnswer> {
    const response = await dialUssd(
      testApp.app,
      reference,
      ussdBankCode === undefined ? {} : { ussdBankCode },
    );
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as DialAnswer;
  }

  async function getReference(reference: string): Promise<WireReference> {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/ussd-payment/${reference}`,
      headers: merchant.headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as WireReference;
  }

  /** The reference's stored row, with every transfer, journal and event its payments made. */
  async function booksOf(reference: string) {
    const [row] = await testApp.db.query<{
      status: string;
      transfer_id: string | null;
      session_id: string | null;
      next_status_query_at: Date | null;
    }>(
      `SELECT status, transfer_id, session_id, next_status_query_at
         FROM ussd_references WHERE reference = $1`,
      [reference],
    );
    assert.ok(row !== undefined, `reference ${reference} is stored`);
    // A USSD payment's Inwards row is narrated after the reference; its journal after the bank.
    const transfers = await testApp.db.query<{ id: string; session_id: string; type: string }>(
      'SELECT id, session_id, type FROM transfers WHERE narration = $1',
      [`USSD payment ${reference}`],
    );
    const journals = await testApp.db.query<{ id: string; transfer_id: string | null }>(
      `SELECT id, transfer_id FROM ledger_journals
        WHERE narration LIKE $1 OR transfer_id = ANY($2::text[])`,
      [`USSD ${reference} via %`, transfers.map((transfer) => transfer.id)],
    );
    const events = await testApp.db.query<{ callback_url: string | null; payload: string }>(
      `SELECT callback_url, payload::text AS payload FROM webhook_events
        WHERE type = 'ussd.payment' AND payload->'data'->>'reference' = $1`,
      [reference],
    );
    return { row, transfers, journals, events };
  }

  /** Paid once, by `sessionId`: one Inwards transfer, one journal, one event, Paid on the wire. */
  async function assertSettledOnce(reference: string, sessionId: string, amountKobo: number) {
    const { row, transfers, journals, events } = await booksOf(reference);
    assert.equal(row.status, 'Paid', reference);
    assert.equal(row.session_id, sessionId, reference);
    assert.equal(row.next_status_query_at, null, `${reference}: no status query after payment`);
    assert.equal(transfers.length, 1, `${reference}: ${JSON.stringify(transfers)}`);
    const [transfer] = transfers;
    assert.equal(transfer?.type, 'Inwards');
    assert.equal(transfer?.session_id, sessionId);
    assert.equal(row.transfer_id, transfer?.id);
    assert.deepEqual(
      journals.map((journal) => journal.transfer_id),
      [transfer?.id],
      `${reference}: one journal`,
    );
    assert.equal(events.length, 1, `${reference}: ${JSON.stringify(events)}`);
    assert.equal(events[0]?.callback_url, CALLBACK_URL);
    const event = JSON.parse(events[0]?.payload ?? '{}') as { type: string; data: WireReference };
    assert.equal(event.type, 'ussd.payment');
    assert.equal(event.data.status, 'Paid');
    assert.equal(event.data.payment?.sessionId, sessionId);
    assert.equal(event.data.payment?.transferId, transfer?.id);

    const wire = await getReference(reference);
    assert.equal(wire.status, 'Paid');
    assert.equal(wire.payment?.sessionId, sessionId);
    assert.equal(wire.payment?.transferId, transfer?.id);
    assert.equal(Math.round((wire.payment?.amount ?? 0) * 100), amountKobo);
    assert.equal(
      Math.round(
        ((wire.payment?.amount ?? 0) - (wire.payment?.fees ?? 0) - (wire.payment?.vat ?? 0)) * 100,
      ),
      netKobo(amountKobo),
    );
  }

  /** The ledger audit holds, the books sum to zero, and USSD references agree with transfers. */
  async function assertBooksHold() {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
    const [total] = await testApp.db.query<{ sum: string }>(
      'SELECT coalesce(sum(amount_kobo), 0)::text AS sum FROM ledger_entries',
    );
    assert.equal(total?.sum, '0');
    // Paid references have exactly their own transfer; unpaid ones none; no stray USSD transfer.
    const disagreeing = await testApp.db.query(
      `SELECT r.reference, r.status, count(t.id) AS transfers
         FROM ussd_references r
         LEFT JOIN transfers t ON t.narration = 'USSD payment ' || r.reference
        GROUP BY r.reference, r.status, r.transfer_id
       HAVING count(t.id) <> (CASE WHEN r.status = 'Paid' THEN 1 ELSE 0 END)
           OR (r.status = 'Paid' AND r.transfer_id IS DISTINCT FROM min(t.id))`,
    );
    assert.deepEqual(disagreeing, []);
    const stray = await testApp.db.query(
      `SELECT t.id FROM transfers t
        WHERE t.narration LIKE 'USSD payment %'
          AND NOT EXISTS (SELECT 1 FROM ussd_references r WHERE r.transfer_id = t.id)`,
    );
    assert.deepEqual(stray, []);
  }

  it(`one reference dialled ${DIAL_BANKS.length} times at once, from as many banks, is paid exactly once`, async () => {
    const created = await create({ amount: '1500.00' });
    const before = await balanceKobo();
    const answers = await Promise.all(DIAL_BANKS.map((bank) => dial(created.reference, bank)));
    const bodies = JSON.stringify(answers.map(({ outcome, code }) => ({ outcome, code })));
    const paid = answers.filter((answer) => answer.outcome === 'paid');
    const reversed = answers.filter((answer) => answer.outcome === 'reversed');
    assert.equal(paid.length, 1, bodies);
    assert.equal(reversed.length, DIAL_BANKS.length - 1, bodies);
    for (const answer of reversed) {
      assert.equal(answer.code, 'USSD_REFERENCE_CLOSED', bodies);
      assert.notEqual(answer.sessionId, paid[0]?.sessionId);
    }
    const sessionId = paid[0]?.sessionId ?? '';
    // ₦1,500 less ₦7.50 fee and ₦0.56 VAT, once.
    assert.equal(netKobo(150_000), 149_194);
    assert.equal(await balanceKobo(), before + 149_194);
    await assertSettledOnce(created.reference, sessionId, 150_000);
    // The refused sessions moved nothing.
    const refusedRows = await testApp.db.query(
      'SELECT id FROM transfers WHERE session_id = ANY($1::text[])',
      [reversed.map((answer) => answer.sessionId)],
    );
    assert.deepEqual(refusedRows, []);
    // The client sees the one event too.
    const deliveries = await testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=ussd.payment&limit=100',
      headers: merchant.headers,
    });
    assert.equal(deliveries.statusCode, 200, deliveries.body);
    const forReference = (
      deliveries.json().data as { payload: { data: { reference: string } } }[]
    ).filter((delivery) => delivery.payload.data.reference === created.reference);
    assert.equal(forReference.length, 1, deliveries.body);
    await assertBooksHold();
  });

  it('8 references each dialled 6 times, all at once: each is paid exactly once', async () => {
    const references = await Promise.all(
      Array.from({ length: 8 }, (_, index) => create({ amount: `${200 + index * 10}.00` })),
    );
    const before = await balanceKobo();
    const callsBefore = receiveBatches.length;
    const answers = await Promise.all(
      references.flatMap((created) =>
        DIAL_BANKS.slice(0, 6).map(async (bank) => ({
          reference: created.reference,
          answer: await dial(created.reference, bank),
        })),
      ),
    );
    // Both ways two payments on one reference meet happened: in one call (the second is refused
    // by the first's row in the same transaction) and in different calls (under the lock).
    const calls = receiveBatches.slice(callsBefore);
    const shape = JSON.stringify(calls.map((call) => call.map((id) => id.slice(-4))));
    assert.ok(
      calls.some((call) => new Set(call).size < call.length),
      `some call carries one reference twice: ${shape}`,
    );
    assert.ok(
      references.some((created) => calls.filter((call) => call.includes(created._id)).length > 1),
      `some reference is paid in more than one call: ${shape}`,
    );
    let expected = 0;
    for (const [index, created] of references.entries()) {
      const mine = answers.filter((entry) => entry.reference === created.reference);
      const outcomes = mine.map((entry) => `${entry.answer.outcome} ${entry.answer.code ?? ''}`);
      assert.equal(
        outcomes.filter((outcome) => outcome.startsWith('paid')).length,
        1,
        outcomes.join(', '),
      );
      assert.equal(
        outcomes.filter((outcome) => outcome === 'reversed USSD_REFERENCE_CLOSED').length,
        5,
        outcomes.join(', '),
      );
      const paid = mine.find((entry) => entry.answer.outcome === 'paid');
      const amountKobo = (200 + index * 10) * 100;
      await assertSettledOnce(created.reference, paid?.answer.sessionId ?? '', amountKobo);
      expected += netKobo(amountKobo);
    }
    assert.equal(await balanceKobo(), before + expected);
    await assertBooksHold();
  });

  it('40 references paid at once, into two accounts, all settle: several in one group commit', async () => {
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers: merchant.headers,
      payload: {},
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const second = (opened.json().data as { accountNumber: string }).accountNumber;
    const accounts = [merchant.accountNumber, second];
    const amounts = Array.from({ length: 40 }, (_, index) => 100 + index * 37);
    const references = await Promise.all(
      amounts.map((amount, index) =>
        create({ amount: `${amount}.00` }, accounts[index % 2] as string),
      ),
    );
    const before = await Promise.all(accounts.map((account) => balanceKobo(account)));
    const callsBefore = receiveBatches.length;
    const answers = await Promise.all(
      references.map((created, index) =>
        dial(created.reference, DIAL_BANKS[index % DIAL_BANKS.length]),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.outcome),
      answers.map(() => 'paid'),
    );
    const expected = [0, 0];
    for (const [index, created] of references.entries()) {
      const amountKobo = (amounts[index] as number) * 100;
      await assertSettledOnce(created.reference, answers[index]?.sessionId ?? '', amountKobo);
      expected[index % 2] = (expected[index % 2] as number) + netKobo(amountKobo);
    }
    assert.deepEqual(
      await Promise.all(accounts.map((account) => balanceKobo(account))),
      before.map((balance, index) => balance + (expected[index] as number)),
    );
    // The group commit put several references' payments in one call.
    const ids = new Set(references.map((created) => created._id));
    const calls = receiveBatches
      .slice(callsBefore)
      .map((batch) => batch.filter((id) => ids.has(id)))
      .filter((batch) => batch.length > 0);
    assert.ok(calls.length < 40, `${calls.length} calls for 40 payments`);
    assert.ok(
      calls.some((batch) => new Set(batch).size > 1),
      `a call with several references: ${JSON.stringify(calls.map((batch) => batch.length))}`,
    );
    await assertBooksHold();
  });

  it('lost notices found by two status-query workers and direct queries at once settle once each', async () => {
    // Kobo .52: the customer's bank debits, the gateway records it, but the bank is not told.
    const references = await Promise.all(
      Array.from({ length: 6 }, (_, index) => create({ amount: `${1000 + index}.52` })),
    );
    const before = await balanceKobo();
    const dialled = await Promise.all(
      references.map((created, index) => dial(created.reference, DIAL_BANKS[index])),
    );
    for (const [index, answer] of dialled.entries()) {
      assert.equal(answer.outcome, 'noticeLost');
      assert.equal((await getReference(references[index]?.reference ?? '')).status, 'Pending');
    }
    assert.equal(await balanceKobo(), before, 'nothing lands before a status query');

    // The first status query is due a minute after the reference was created.
    testApp.clock.advanceSeconds(61);
    const [due] = await testApp.db.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM ussd_references
        WHERE status = 'Pending' AND next_status_query_at <= $1`,
      [testApp.clock.now()],
    );
    assert.equal(due?.count, '6', 'only these references are due');

    const { ussdService } = testApp.services;
    const claimedBy: [number, string][] = [];
    const worker = (id: number) =>
      createUssdStatusQueryWorker({
        db: testApp.db,
        clock: testApp.clock,
        ussd: {
          queryAndSettle: (reference) => {
            claimedBy.push([id, reference.reference]);
            return ussdService.queryAndSettle(reference);
          },
        },
        batchSize: 3,
        pollIntervalMs: 60_000,
        claimSeconds: 30,
      });
    const stored = await Promise.all(
      references.map(async (created) => {
        const found = await ussdService.findByReference(created.reference);
        assert.ok(found !== undefined);
        return found;
      }),
    );
    const [first, second] = await Promise.all([
      worker(1).runOnce(),
      worker(2).runOnce(),
      // The same references queried twice more, as an operator's or another worker's late run.
      ...stored.flatMap((reference) => [
        ussdService.queryAndSettle(reference),
        ussdService.queryAndSettle(reference),
      ]),
    ]);
    // The workers' claims are disjoint (SKIP LOCKED): no reference was queried by both.
    const claimed = claimedBy.map(([, reference]) => reference);
    assert.equal(claimed.length, (first as number) + (second as number));
    assert.equal(new Set(claimed).size, claimed.length, JSON.stringify(claimedBy));
    assert.ok(claimed.length > 0, 'the workers found the due references');

    let expected = 0;
    for (const [index, created] of references.entries()) {
      const amountKobo = (1000 + index) * 100 + 52;
      await assertSettledOnce(created.reference, dialled[index]?.sessionId ?? '', amountKobo);
      expected += netKobo(amountKobo);
    }
    assert.equal(await balanceKobo(), before + expected);
    // Nothing is left to query: a third run finds no work, even once the claims lapse.
    testApp.clock.advanceSeconds(60);
    assert.equal(await worker(3).runOnce(), 0);
    await assertBooksHold();
  });

  it('a dial racing status queries of the same reference settles once, with the dial session', async () => {
    const references = await Promise.all(
      Array.from({ length: 10 }, (_, index) => create({ amount: `${300 + index}.00` })),
    );
    // Due for a status query while the customer is dialling.
    testApp.clock.advanceSeconds(61);
    const { ussdService } = testApp.services;
    const stored = await Promise.all(
      references.map(async (created) => {
        const found = await ussdService.findByReference(created.reference);
        assert.ok(found !== undefined);
        return found;
      }),
    );
    const before = await balanceKobo();
    const worker = () =>
      createUssdStatusQueryWorker({
        db: testApp.db,
        clock: testApp.clock,
        ussd: ussdService,
        batchSize: 5,
        pollIntervalMs: 60_000,
        claimSeconds: 30,
      });
    const results = await Promise.all([
      worker().runOnce(),
      worker().runOnce(),
      ...stored.map(async (reference, index) => {
        const [answer] = await Promise.all([
          dial(reference.reference, DIAL_BANKS[index % DIAL_BANKS.length]),
          ussdService.queryAndSettle(reference),
        ]);
        // Asked again once the gateway has the payment: the same session, answered, not paid twice.
        await ussdService.queryAndSettle(reference);
        return answer;
      }),
    ]);
    const answers = results.slice(2) as DialAnswer[];
    let expected = 0;
    for (const [index, created] of references.entries()) {
      assert.equal(answers[index]?.outcome, 'paid', JSON.stringify(answers[index]));
      const amountKobo = (300 + index) * 100;
      await assertSettledOnce(created.reference, answers[index]?.sessionId ?? '', amountKobo);
      expected += netKobo(amountKobo);
    }
    assert.equal(await balanceKobo(), before + expected);
    await assertBooksHold();
  });
});
