import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  getAccount,
  nameEnquiry,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  sandboxCredit,
} from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { createBulkPayoutWorker } from '../bulk/bulk-worker.ts';

describe('POST /transfers/bulk', () => {
  const context = useRouteContext();
  let keys = 0;
  const post = (payload: object, key: string | null = `bulk-${++keys}`) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/transfers/bulk',
      headers: { ...context().headers, ...(key === null ? {} : { 'idempotency-key': key }) },
      payload,
    });
  const show = (id: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/transfers/bulk/${id}`, headers });
  /** One round of the bulk worker: every due batch placed. */
  async function drain(): Promise<void> {
    const { testApp } = context();
    const worker = createBulkPayoutWorker({
      db: testApp.db,
      clock: testApp.clock,
      batchSize: 10,
      pollIntervalMs: 1000,
      claimSeconds: 60,
      bulkPayouts: testApp.services.bulkPayouts,
    });
    await worker.runOnce();
  }
  const balance = async () =>
    (await getAccount(context().testApp.app, context().headers, context().ownAccountId))
      .accountBalance as number;
  let refs = 0;
  const intra = (amount: number, extra: Record<string, unknown> = {}) => ({
    debitAccountNumber: context().ownAccountNumber,
    beneficiaryBankCode: '999240',
    beneficiaryAccountNumber: context().otherAccountNumber,
    amount,
    paymentReference: `B-${++refs}`,
    ...extra,
  });
  const nip = (amount: number, extra: Record<string, unknown> = {}) => ({
    ...intra(amount),
    beneficiaryBankCode: OTHER_BANK,
    beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
    ...extra,
  });
  async function completedEvents(batchId: string): Promise<number> {
    const rows = await context().testApp.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_events
        WHERE type = 'transfer.bulk.completed' AND payload::jsonb->'data'->>'_id' = $1`,
      [batchId],
    );
    return rows[0]?.n ?? 0;
  }

  before(async () => {
    await sandboxCredit(context().testApp.app, context().ownAccountNumber, 10_000);
  });

  describe('202: accepted at once, placed by the worker', () => {
    it('places intra-bank and NIP items, refuses the invalid ones alone, completes once', async () => {
      const { sessionId } = await nameEnquiry(
        context().testApp.app,
        context().headers,
        OTHER_BANK,
        OTHER_BANK_ACCOUNT,
      );
      const before = await balance();
      const items = [
        intra(100),
        nip(200, { nameEnquiryReference: sessionId }),
        nip(50),
        { ...intra(10), paymentReference: 'B-1' },
        { ...intra(10), beneficiaryBankCode: '123456' },
        { ...intra(10), amount: 1.234 },
        { debitAccountNumber: 'nope' },
        intra(1_000_000),
      ];
      const accepted = await post({ transfers: items });
      assert.equal(accepted.statusCode, 202, accepted.body);
      const batch = accepted.json().data;
      assert.equal(batch.status, 'Processing');
      assert.deepEqual([batch.total, batch.pending, batch.refused, batch.placed], [8, 4, 4, 0]);
      await drain();
      const shown = (await show(batch._id)).json().data;
      assert.equal(shown.status, 'Completed');
      assert.deepEqual([shown.placed, shown.refused, shown.pending], [3, 5, 0]);
      const codes = shown.items.map((item: { errorCode: string | null }) => item.errorCode);
      assert.deepEqual(codes, [
        null,
        null,
        null,
        'DUPLICATE_REFERENCE',
        'UNKNOWN_BANK',
        'INVALID_AMOUNT',
        'VALIDATION_ERROR',
        'INSUFFICIENT_FUNDS',
      ]);
      assert.ok(shown.items.slice(0, 3).every((item: { transferId: string }) => item.transferId));
      // 100 + 200 + 50, and fees and VAT of two NIP transfers (10 + 0.75 each).
      assert.equal(await balance(), before - 350 - 21.5);
      assert.equal(await completedEvents(batch._id), 1);
      await drain();
      assert.equal(await completedEvents(batch._id), 1);
    });

    it('replays the same key and body; refuses the key with another body (422)', async () => {
      const body = { transfers: [intra(1)] };
      const first = await post(body, 'replayed-key');
      const again = await post(body, 'replayed-key');
      assert.equal(again.statusCode, 202);
      assert.equal(again.json().data._id, first.json().data._id);
      const other = await post({ transfers: [intra(2)] }, 'replayed-key');
      assert.equal(other.statusCode, 422);
      assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
      await drain();
      const replayAfter = await post(body, 'replayed-key');
      assert.equal(replayAfter.json().data.status, 'Completed');
    });

    it('refuses a reference used by an earlier batch', async () => {
      const first = await post({ transfers: [intra(1, { paymentReference: 'SHARED' })] });
      const second = await post({ transfers: [intra(1, { paymentReference: 'SHARED' })] });
      assert.equal(first.json().data.pending, 1);
      assert.equal(second.json().data.refused, 1);
      await drain();
    });
  });

  describe('allOrNothing', () => {
    it('holds the total first, then places every item on it', async () => {
      const before = await balance();
      const accepted = await post({ transfers: [intra(100), nip(100)], allOrNothing: true });
      assert.equal(accepted.statusCode, 202, accepted.body);
      assert.equal(await balance(), before - 210.75);
      await drain();
      const shown = (await show(accepted.json().data._id)).json().data;
      assert.deepEqual([shown.placed, shown.refused], [2, 0]);
      assert.equal(await balance(), before - 210.75);
      const [held] = await context().testApp.db.query<{ held: bigint }>(
        `SELECT held_kobo AS held FROM ledger_accounts WHERE id = $1`,
        [context().ownAccountId],
      );
      assert.equal(held?.held, 0n);
    });

    it('400 when any item is invalid, naming each; nothing stored', async () => {
      const response = await post({
        transfers: [intra(1), { ...intra(1), amount: -1 }],
        allOrNothing: true,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
      assert.match(JSON.stringify(response.json()), /transfers\[1\]/);
    });

    it('402 when the total cannot be held; nothing moves', async () => {
      const before = await balance();
      const response = await post({
        transfers: [intra(before / 2 + 1), intra(before / 2 + 1)].map((item) => ({
          ...item,
          amount: Math.floor(item.amount),
        })),
        allOrNothing: true,
      });
      assert.equal(response.statusCode, 402, response.body);
      assert.equal(response.json().code, 'INSUFFICIENT_FUNDS');
      assert.equal(await balance(), before);
    });
  });

  describe('400: the request itself', () => {
    it('without an Idempotency-Key', async () => {
      const response = await post({ transfers: [intra(1)] }, null);
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /Idempotency-Key/);
    });

    it('with no transfers, or more than 1,000', async () => {
      assert.equal((await post({ transfers: [] })).statusCode, 400);
      const many = Array.from({ length: 1001 }, () => intra(1));
      assert.equal((await post({ transfers: many })).statusCode, 400);
    });

    it('takes a body of 1,000 items (its own body limit)', async () => {
      const many = Array.from({ length: 1000 }, () => intra(0.01, { narration: 'x'.repeat(100) }));
      const response = await post({ transfers: many });
      assert.equal(response.statusCode, 202, response.body.slice(0, 300));
      assert.equal(response.json().data.total, 1000);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/transfers/bulk',
    payload: { transfers: [{}] },
  }));
});
