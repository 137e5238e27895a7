import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountBalance,
  nameEnquiry,
  sandboxCredit,
  signedInClient,
} from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';

/**
 * Group commit as clients see it: requests that arrive together are placed by one database call,
 * and each is still answered for itself.
 */
describe('transfer placement: group commit', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  let debitAccountNumber: string;
  let payee: string;
  /** The item count of every placement call the service made. */
  const batchSizes: number[] = [];
  /** Each placement call waits this long first: a slow commit, so a burst collects behind it. */
  let commitDelayMs = 0;

  const post = (payload: object, extra: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers: { ...headers, ...extra },
      payload,
    });

  const balance = () => accountBalance(testApp.app, headers, debitAccountNumber);

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    debitAccountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, debitAccountNumber, 1_000);
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: { suffix: 'Payee' },
    });
    payee = opened.json().data.accountNumber;
    // Watch the placement calls on the service's own database handle.
    const query = testApp.db.query.bind(testApp.db);
    testApp.db.query = (async (sql: string, params?: readonly unknown[]) => {
      if (sql.includes('apply_batch($1') && params?.[0] === 'transfer_place_one') {
        batchSizes.push((JSON.parse(String(params?.[2])) as unknown[]).length);
        await new Promise((resolve) => setTimeout(resolve, commitDelayMs));
      }
      return query(sql, params as never);
    }) as typeof testApp.db.query;
  });
  after(() => testApp.close());

  it('places a burst in few calls; refusals, replays and placements are answered one by one', async () => {
    const enquiry = await nameEnquiry(testApp.app, headers, '999240', payee);
    const body = (amount: number, paymentReference: string) => ({
      nameEnquiryReference: enquiry.sessionId,
      debitAccountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: payee,
      amount,
      saveBeneficiary: false,
      paymentReference,
    });
    const callsBefore = batchSizes.length;
    // Slow commits: what arrives while the batches in flight commit waits for the next call.
    commitDelayMs = 150;
    const answers = await Promise.all([
      ...[1, 2, 3, 4, 5, 6].map((n) => post(body(100, `GC-${n}`))),
      // Two identical requests under one key: one transfer, answered twice.
      post(body(100, 'GC-TWIN'), { 'idempotency-key': 'gc-twin' }),
      post(body(100, 'GC-TWIN'), { 'idempotency-key': 'gc-twin' }),
      // More than is left once the others are placed.
      post(body(5_000, 'GC-BIG')),
      // An enquiry that does not exist.
      post({ ...body(10, 'GC-NOENQUIRY'), nameEnquiryReference: '999240000000000000000000000000' }),
    ]);
    commitDelayMs = 0;
    const statuses = answers.map((answer) => answer.statusCode);
    assert.deepEqual(statuses.slice(0, 8), Array<number>(8).fill(200), answers[0]?.body);
    assert.equal(answers[8]?.json().code, 'INSUFFICIENT_FUNDS');
    assert.equal(answers[9]?.json().code, 'NAME_ENQUIRY_INVALID');
    assert.equal(answers[6]?.json().data._id, answers[7]?.json().data._id);
    const ids = new Set(answers.slice(0, 7).map((answer) => answer.json().data._id));
    assert.equal(ids.size, 7, 'six transfers and the twin, each its own');
    assert.equal(await balance(), 1_000 - 7 * 100, 'the twin debited once');

    const calls = batchSizes.slice(callsBefore);
    assert.equal(
      calls.reduce((sum, size) => sum + size, 0),
      10,
    );
    // One call per batch slot for the first arrivals (two on PostgreSQL), then the rest at once.
    assert.ok(calls.length <= 3, `ten requests in ${calls.length} calls: ${calls.join(', ')}`);
    assert.ok(Math.max(...calls) >= 5, `one call carried most: ${calls.join(', ')}`);
  });
});
