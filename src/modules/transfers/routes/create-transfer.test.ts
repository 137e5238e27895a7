import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  getAccount,
  nameEnquiry,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  openSubAccount,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

const OTHER_ACCOUNT = OTHER_BANK_ACCOUNT;

describe('POST /transfers', () => {
  const context = useRouteContext();
  let own: { accountNumber: string; _id: string };
  let other: { accountNumber: string; _id: string };

  const call = (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const accountOf = (accountId: string) =>
    getAccount(context().testApp.app, context().headers, accountId);
  const enquire = (bankCode: string, accountNumber: string) =>
    nameEnquiry(context().testApp.app, context().headers, bankCode, accountNumber);

  function transfer(
    body: Record<string, unknown>,
    headers: Record<string, string> = context().headers,
  ) {
    return call(
      'POST',
      '/transfers',
      { debitAccountNumber: own.accountNumber, saveBeneficiary: false, ...body },
      headers,
    );
  }

  const nip = (amount: number, extra: Record<string, unknown> = {}) =>
    sendTransfer(context().testApp.app, context().headers, {
      debitAccountNumber: own.accountNumber,
      amount,
      ...extra,
    });

  async function ledgerEntries(): Promise<bigint> {
    const [row] = await context().testApp.db.query<{ count: bigint }>(
      'SELECT count(*) FROM ledger_entries',
    );
    return row?.count ?? 0n;
  }

  before(async () => {
    const { testApp, ownAccountId, ownAccountNumber, otherAccountId, otherAccountNumber } =
      context();
    own = { _id: ownAccountId, accountNumber: ownAccountNumber };
    other = { _id: otherAccountId, accountNumber: otherAccountNumber };
    await sandboxCredit(testApp.app, own.accountNumber, 5_000);
  });

  describe('200: intra-bank transfers complete at once', () => {
    it('moves money at once, shows both sides, and replays a repeated paymentReference', async () => {
      const before = await accountOf(own._id);
      const { sessionId } = await enquire('999240', other.accountNumber);
      const body = {
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: other.accountNumber,
        amount: 100.5,
        paymentReference: 'INTRA-1',
        narration: 'Rent',
      };
      const first = await transfer(body);
      assert.equal(first.statusCode, 200, first.body);
      const sent = first.json().data;
      assert.equal(sent.status, 'Completed');
      assert.equal(sent.type, 'Outwards');
      assert.equal(sent.fees, 0);
      assert.equal(sent.providerChannel, 'TRANSFER');
      const replay = (await transfer(body)).json().data;
      assert.equal(replay._id, sent._id);
      assert.equal((await accountOf(own._id)).accountBalance, before.accountBalance - 100.5);
      const conflict = await transfer({ ...body, amount: 200 });
      assert.equal(conflict.statusCode, 409);
      const theirs = await call(
        'GET',
        `/transfers?type=Inwards&accountId=${other._id}`,
        undefined,
        context().otherHeaders,
      );
      assert.ok(
        theirs.json().data.some((item: { sessionId: string }) => item.sessionId === sent.sessionId),
      );
    });
  });

  describe('200: NIP transfers, two-phase', () => {
    it('completes on 00 with the fee and VAT posted', async () => {
      const before = await accountOf(own._id);
      const response = await nip(100);
      const sent = response.json().data;
      assert.equal(sent.status, 'Completed', response.body);
      assert.equal(sent.responseCode, '00');
      assert.equal(sent.fees, 10);
      assert.equal(sent.vat, 0.75);
      const after = await accountOf(own._id);
      assert.equal(after.accountBalance, before.accountBalance - 110.75);
      assert.equal(after.lockedBalance, 0);
    });

    it('fails on a definitive code and releases the hold', async () => {
      const before = await accountOf(own._id);
      const sent = (await nip(100.05)).json().data;
      assert.equal(sent.status, 'Failed');
      assert.equal(sent.responseCode, '05');
      assert.deepEqual(await accountOf(own._id), before);
    });

    it('answers the NIBSS envelope: the result at the top level, the transfer in data', async () => {
      const response = await nip(10);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Transfer processed.');
      assert.equal(body.data.type, 'Outwards');
      assert.equal(body.data.creditAccountNumber, OTHER_ACCOUNT);
      assert.equal(body.data.debitAccountNumber, own.accountNumber);
    });
  });

  describe('400: refused before any money moves', () => {
    it('refuses a transfer to the same account', async () => {
      const { sessionId } = await enquire('999240', own.accountNumber);
      const response = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: own.accountNumber,
        amount: 1,
      });
      assert.equal(response.json().code, 'SAME_ACCOUNT');
    });

    it('refuses a stale, foreign or mismatched name enquiry reference', async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const mismatched = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: '0123456788',
        amount: 1,
      });
      assert.equal(mismatched.json().code, 'NAME_ENQUIRY_INVALID');
      const { testApp } = context();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(testApp.config.transfers.nameEnquiryTtlSeconds + 1);
      const stale = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 1,
      });
      testApp.clock.set(restore);
      assert.equal(stale.statusCode, 400);
      assert.equal(stale.json().code, 'NAME_ENQUIRY_INVALID');
    });

    it("refuses another client's name enquiry reference", async () => {
      const theirs = await nameEnquiry(
        context().testApp.app,
        context().otherHeaders,
        OTHER_BANK,
        OTHER_ACCOUNT,
      );
      const before = await ledgerEntries();
      const response = await transfer({
        nameEnquiryReference: theirs.sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 1,
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'NAME_ENQUIRY_INVALID');
      assert.equal(await ledgerEntries(), before);
    });

    it("refuses another client's debit account as unknown", async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const response = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 1,
        debitAccountNumber: other.accountNumber,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });

    it('refuses a malformed Idempotency-Key', async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const headers = { ...context().headers, 'idempotency-key': 'has spaces in it' };
      const response = await transfer(
        {
          nameEnquiryReference: sessionId,
          beneficiaryBankCode: OTHER_BANK,
          beneficiaryAccountNumber: OTHER_ACCOUNT,
          amount: 1,
        },
        headers,
      );
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
    });

    it('refuses an amount that is not positive naira with at most two decimals', async () => {
      const before = await ledgerEntries();
      for (const amount of [0, -1, 10.005, '10']) {
        const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
        const response = await transfer({
          nameEnquiryReference: sessionId,
          beneficiaryBankCode: OTHER_BANK,
          beneficiaryAccountNumber: OTHER_ACCOUNT,
          amount,
        });
        assert.equal(response.statusCode, 400, `${amount}: ${response.body}`);
      }
      assert.equal(await ledgerEntries(), before);
    });
  });

  describe('402: what the account or its KYC level cannot cover', () => {
    it('refuses what the account cannot cover with 402 and records nothing', async () => {
      const response = await nip(1_000_000, { paymentReference: 'TOO-MUCH' });
      assert.equal(response.statusCode, 402);
      assert.equal(response.json().code, 'INSUFFICIENT_FUNDS');
      const history = await call('POST', '/transfers/status', { paymentReference: 'TOO-MUCH' });
      assert.equal(history.statusCode, 400);
    });

    it('refuses an amount over the per-transfer limit with 402', async () => {
      const response = await nip(5_000_001);
      assert.equal(response.statusCode, 402);
      assert.equal(response.json().code, 'TRANSFER_LIMIT_EXCEEDED');
    });

    it('a level 2 sub-account moves at most ₦200,000 per transfer (TRANSFER_LIMITS_BY_KYC_NAIRA)', async () => {
      const { testApp, headers } = context();
      const sub = await openSubAccount(testApp.app, headers, own.accountNumber);
      await sandboxCredit(testApp.app, sub.accountNumber, 250_000);
      const enquiry = await enquire('999240', own.accountNumber);
      const send = (amount: number) =>
        call('POST', '/transfers', {
          nameEnquiryReference: enquiry.sessionId,
          debitAccountNumber: sub.accountNumber,
          beneficiaryBankCode: '999240',
          beneficiaryAccountNumber: own.accountNumber,
          amount,
          saveBeneficiary: false,
        });
      const over = await send(200_000.01);
      assert.equal(over.statusCode, 402);
      assert.equal(over.json().code, 'TRANSFER_LIMIT_EXCEEDED');
      assert.equal((await send(200_000)).json().data.status, 'Completed');
    });
  });

  describe('409: a paymentReference already used for another transfer', () => {
    it('answers DUPLICATE_REFERENCE and moves no money', async () => {
      const first = await nip(12, { paymentReference: 'NIP-REF-1' });
      assert.equal(first.json().data.status, 'Completed', first.body);
      const before = await accountOf(own._id);
      const other = await nip(13, { paymentReference: 'NIP-REF-1' });
      assert.equal(other.statusCode, 409, other.body);
      assert.equal(other.json().code, 'DUPLICATE_REFERENCE');
      assert.deepEqual(await accountOf(own._id), before);
    });
  });

  describe('422: an Idempotency-Key reused with another body', () => {
    it('replays an Idempotency-Key and refuses it with another body (422)', async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const body = {
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 20,
      };
      const headers = { ...context().headers, 'idempotency-key': 'key-1' };
      const first = (await transfer(body, headers)).json().data;
      const again = (await transfer(body, headers)).json().data;
      assert.equal(again._id, first._id);
      const other = await transfer({ ...body, amount: 21 }, headers);
      assert.equal(other.statusCode, 422);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/transfers',
    payload: {
      nameEnquiryReference: '0'.repeat(30),
      debitAccountNumber: context().ownAccountNumber,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: OTHER_ACCOUNT,
      amount: 1,
      saveBeneficiary: false,
    },
  }));
});

describe('POST /transfers when too many placements wait for the database', () => {
  let testApp: TestApp;
  let payer: Awaited<ReturnType<typeof signedInClient>>;
  let payee: Awaited<ReturnType<typeof signedInClient>>;

  before(async () => {
    // One item may wait behind the batches in flight. The revocation list is read once a
    // minute, so no request needs the database before its transfer's look-ups.
    testApp = await buildTestApp({
      GROUP_COMMIT_MAX_WAITING: '1',
      REVOCATION_REFRESH_SECONDS: '60',
    });
    payer = await signedInClient(testApp, 'Busy Payer Ltd', 0);
    payee = await signedInClient(testApp, 'Busy Payee Ltd', 1);
    await sandboxCredit(testApp.app, payer.client.mainAccountNumber, 1_000);
  });
  after(() => testApp?.close());

  const send = (body: object, idempotencyKey: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers: { ...payer.headers, 'idempotency-key': idempotencyKey },
      payload: body,
    });
  const balanceOf = async (client: typeof payer) =>
    (await getAccount(testApp.app, client.headers, client.client.mainAccountId)).accountBalance;

  it('503 SERVER_BUSY with Retry-After for what finds the queue full, and nothing of it done', {
    timeout: 120_000,
  }, async () => {
    const { sessionId } = await nameEnquiry(
      testApp.app,
      payer.headers,
      '999240',
      payee.client.mainAccountNumber,
    );
    const payeeBefore = await balanceOf(payee);
    const bodies = Array.from({ length: 8 }, (_, index) => ({
      debitAccountNumber: payer.client.mainAccountNumber,
      nameEnquiryReference: sessionId,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: payee.client.mainAccountNumber,
      amount: 10,
      paymentReference: `BUSY-${index}`,
      saveBeneficiary: false,
    }));
    // The debit account stays locked (on embedded PGlite, the one session stays taken) until
    // the refusals are in: at most two batches of one item are in flight and one item waits.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = testApp.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [
        payer.client.mainAccountId,
      ]);
      locked();
      await gate;
    });
    await lockTaken;
    let answered = 0;
    const answers = bodies.map((body, index) =>
      send(body, `busy-${index}`).finally(() => {
        answered += 1;
        if (answered === bodies.length - 3) {
          release();
        }
      }),
    );
    await holding;
    const responses = await Promise.all(answers);

    const refused = responses.flatMap((response, index) =>
      response.statusCode === 503 ? [{ response, body: bodies[index], index }] : [],
    );
    const placed = responses.filter((response) => response.statusCode === 200);
    assert.ok(refused.length >= bodies.length - 3, `${refused.length} refused`);
    assert.equal(refused.length + placed.length, bodies.length, 'each is refused or placed');
    for (const { response } of refused) {
      assert.equal(response.headers['retry-after'], '1');
      const error = response.json();
      assert.equal(error.statusCode, 503);
      assert.equal(error.code, 'SERVER_BUSY');
      assert.equal(error.error, 'Service Unavailable');
      assert.equal(error.message, error.error_description);
    }
    // Only the placed ones moved money.
    assert.equal(await balanceOf(payee), payeeBefore + 10 * placed.length);
    // A refused request claimed neither its Idempotency-Key nor its paymentReference: sent
    // again, it is placed as new, once.
    const [first] = refused;
    assert.ok(first?.body);
    const again = await send(first.body, `busy-${first.index}`);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().data.paymentReference, first.body.paymentReference);
    const replay = await send(first.body, `busy-${first.index}`);
    assert.equal(replay.json().data._id, again.json().data._id);
    assert.equal(await balanceOf(payee), payeeBefore + 10 * (placed.length + 1));
  });
});
