import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import {
  adminHeaders,
  getAccount,
  openSubAccount,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { verifyLedger } from '../../../ledger/ledger-audit.ts';
import type { InboundCreditRequest } from '../../../rails/rail.ts';
import { newNipSessionId } from '../../../shared/ids.ts';
import { findTransferById } from '../transfer-repository.ts';
import { transferView } from '../transfer-view.ts';

interface Opened {
  readonly _id: string;
  readonly accountNumber: string;
}

interface SweepRow {
  id: string;
  type: string;
  account_id: string;
  session_id: string;
  amount_kobo: bigint;
  status: string;
  xmin: string;
}

interface BatchItem {
  readonly sweep?: object;
}

describe('auto-sweep: a step of the call that credits the account', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  let main: Opened;

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    main = {
      _id: signedIn.client.mainAccountId,
      accountNumber: signedIn.client.mainAccountNumber,
    };
    await sandboxCredit(testApp.app, main.accountNumber, 5_000);
  });
  after(() => testApp?.close());

  /** A sub-account sweeping to `destination` above `retainAmount`, from `minimumAmount` (naira). */
  function sweepingSubAccount(destination: Opened, retainAmount: number, minimumAmount = 1) {
    return openSubAccount(testApp.app, headers, main.accountNumber, {
      callbackUrl: 'https://merchant.example.com/hooks/sweeping',
      autoSweep: true,
      autoSweepDetails: {
        destinationAccountNumber: destination.accountNumber,
        retainAmount,
        minimumAmount,
      },
    });
  }

  /** A credit from another bank, straight to the service the rail hands credits to. */
  function receive(accountNumber: string, amountKobo: bigint) {
    const request: InboundCreditRequest = {
      sessionId: newNipSessionId('000013', testApp.clock),
      nameEnquiryReference: newNipSessionId('000013', testApp.clock),
      amountKobo,
      beneficiaryAccountNumber: accountNumber,
      originator: {
        bankCode: '000013',
        accountNumber: '0123456789',
        accountName: 'YUSUF BELLO',
        kycLevel: '2',
      },
      narration: 'Invoice 42',
    };
    return testApp.services.inboundCredits.receive(request);
  }

  const bookBalance = async (account: Opened) =>
    (await getAccount(testApp.app, headers, account._id)).bookBalance as number;

  /** The sweeps out of an account: each Outwards transfer with its recipient's Inwards twin. */
  async function sweepsFrom(account: Opened) {
    return testApp.db.query<SweepRow>(
      `SELECT t.id, t.type, t.account_id, t.session_id, t.amount_kobo, t.status, t.xmin::text
         FROM transfers t
        WHERE t.narration = 'Auto-sweep' AND t.session_id IN (
              SELECT session_id FROM transfers WHERE account_id = $1 AND type = 'Outwards')
        ORDER BY t.session_id, t.type DESC`,
      [account._id],
    );
  }

  async function assertLedgerSound() {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
      'every balance is the sum of its entries, every journal balances',
    );
  }

  it('sweeps what is above the retained amount in the same call as the credit', async () => {
    const sub = await sweepingSubAccount(main, 100);
    const mainBefore = await bookBalance(main);
    const credit = await receive(sub.accountNumber, 50_050n);
    assert.equal(await bookBalance(sub), 100);
    assert.equal(await bookBalance(main), mainBefore + 400.5);

    const rows = await sweepsFrom(sub);
    assert.deepEqual(
      rows.map((row) => [row.type, row.account_id, row.amount_kobo, row.status]),
      [
        ['Outwards', sub._id, 40_050n, 'Completed'],
        ['Inwards', main._id, 40_050n, 'Completed'],
      ],
    );
    assert.equal(rows[0]?.session_id, rows[1]?.session_id, 'one session, two sides');
    // Written in the credit's own subtransaction: the rows share the transaction id that wrote
    // them (a sweep applied after the batch call, even in its transaction, would not).
    const [credited] = await testApp.db.query<{ xmin: string }>(
      'SELECT xmin::text FROM transfers WHERE id = $1',
      [credit.id],
    );
    assert.deepEqual(
      rows.map((row) => row.xmin),
      [credited?.xmin, credited?.xmin],
    );

    // Each side's `transfer` webhook is the transfer as the API renders it, byte for byte,
    // with the amount the call decided (400.5 naira, as transferView writes it).
    for (const row of rows) {
      const stored = await findTransferById(testApp.db, row.id);
      assert.ok(stored);
      const events = await testApp.db.query<{ payload: string; callback_url: string | null }>(
        `SELECT payload::text AS payload, callback_url FROM webhook_events
          WHERE type = 'transfer' AND payload->'data'->>'_id' = $1`,
        [row.id],
      );
      assert.deepEqual(
        events.map((event) => event.payload),
        [JSON.stringify({ type: 'transfer', data: transferView(stored) })],
      );
      assert.equal(JSON.parse(events[0]?.payload ?? '{}').data.amount, 400.5);
      assert.equal(
        events[0]?.callback_url,
        row.type === 'Outwards' ? 'https://merchant.example.com/hooks/sweeping' : null,
      );
    }
    await assertLedgerSound();
  });

  it('counts the sweep in the swept account identity’s day, under the key the row keeps', async () => {
    const sub = await sweepingSubAccount(main, 0);
    const [{ key } = { key: '' }] = await testApp.db.query<{ key: string }>(
      'SELECT daily_limit_key AS key FROM accounts WHERE id = $1',
      [sub._id],
    );
    const dayTotal = async () =>
      (
        await testApp.db.query<{ total: bigint }>(
          `SELECT coalesce(sum(total_kobo), 0)::bigint AS total FROM daily_outbound_totals
            WHERE limit_key = $1`,
          [key],
        )
      )[0]?.total;
    const before = await dayTotal();
    await receive(sub.accountNumber, 12_345n);
    assert.equal(await dayTotal(), (before ?? 0n) + 12_345n);
    const [outward] = await testApp.db.query<{ daily_limit_key: string }>(
      `SELECT daily_limit_key FROM transfers WHERE account_id = $1 AND type = 'Outwards'`,
      [sub._id],
    );
    assert.equal(outward?.daily_limit_key, key);
  });

  it('sweeps nothing below the minimum, and sweeps the whole balance once it is reached', async () => {
    const sub = await sweepingSubAccount(main, 0, 50);
    await receive(sub.accountNumber, 3_000n);
    assert.equal(await bookBalance(sub), 30);
    assert.deepEqual(await sweepsFrom(sub), []);
    await receive(sub.accountNumber, 2_000n);
    assert.equal(await bookBalance(sub), 0);
    assert.deepEqual(
      (await sweepsFrom(sub)).map((row) => row.amount_kobo),
      [5_000n, 5_000n],
    );
  });

  it('lands the credit and sweeps nothing while the destination is not Active', async () => {
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const destination = opened.json().data as Opened;
    const sub = await sweepingSubAccount(destination, 0);
    const freeze = (action: 'freeze' | 'unfreeze') =>
      testApp.app.inject({
        method: 'POST',
        url: `/admin/accounts/${destination.accountNumber}/${action}`,
        headers: adminHeaders,
      });
    assert.equal((await freeze('freeze')).statusCode, 200);
    const credit = await receive(sub.accountNumber, 20_000n);
    assert.equal(credit.status, 'Completed');
    assert.equal(await bookBalance(sub), 200);
    assert.equal(await bookBalance(destination), 0);
    assert.deepEqual(await sweepsFrom(sub), []);

    assert.equal((await freeze('unfreeze')).statusCode, 200);
    await receive(sub.accountNumber, 1_000n);
    assert.equal(await bookBalance(sub), 0);
    assert.equal(await bookBalance(destination), 210);
    await assertLedgerSound();
  });

  it('sweeps after an intra-bank transfer in, in the placement call', async () => {
    const sub = await sweepingSubAccount(main, 10);
    const mainBefore = await bookBalance(main);
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: main.accountNumber,
      beneficiaryBankCode: testApp.config.institutionCode,
      beneficiaryAccountNumber: sub.accountNumber,
      amount: 70,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().data.status, 'Completed');
    assert.equal(await bookBalance(sub), 10);
    assert.equal(await bookBalance(main), mainBefore - 10);
    const rows = await sweepsFrom(sub);
    assert.deepEqual(
      rows.map((row) => [row.type, row.amount_kobo]),
      [
        ['Outwards', 6_000n],
        ['Inwards', 6_000n],
      ],
    );
    const [placed] = await testApp.db.query<{ xmin: string }>(
      'SELECT xmin::text FROM transfers WHERE id = $1',
      [sent.json().data._id],
    );
    assert.equal(rows[0]?.xmin, placed?.xmin, 'in the placement item’s own subtransaction');
    await assertLedgerSound();
  });

  it('names what the sweep touches among its batch’s locks: the destination and the daily key', async () => {
    const destination = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    const sub = await sweepingSubAccount(destination.json().data as Opened, 0);
    const [{ key } = { key: '' }] = await testApp.db.query<{ key: string }>(
      'SELECT daily_limit_key AS key FROM accounts WHERE id = $1',
      [sub._id],
    );
    // The items as each batch call takes them, from an inbound credit and an intra-bank transfer.
    const query = mock.method(testApp.db, 'query');
    try {
      await receive(sub.accountNumber, 1_000n);
      await sendTransfer(testApp.app, headers, {
        debitAccountNumber: main.accountNumber,
        beneficiaryBankCode: testApp.config.institutionCode,
        beneficiaryAccountNumber: sub.accountNumber,
        amount: 10,
      });
    } finally {
      query.mock.restore();
    }
    // Each call's items with the function that derives their locks (apply_batch's second name).
    const items = query.mock.calls
      .filter((call) => String(call.arguments[0]).includes('apply_batch('))
      .flatMap((call) => {
        const [, locks, json] = call.arguments[1] as [string, string, string];
        return (JSON.parse(json) as BatchItem[]).map((item) => ({ locks, item }));
      });
    const sweeping = items.filter(({ item }) => item.sweep !== undefined);
    assert.equal(sweeping.length, 2, 'one sweep prepared with each credit');
    for (const { locks, item } of sweeping) {
      assert.ok(['transfer_place_locks', 'transfer_receive_locks'].includes(locks));
      const [derived] = await testApp.db.query<{ keys: string[] }>(
        `SELECT ${locks}($1::jsonb) AS keys`,
        [JSON.stringify(item)],
      );
      for (const locked of [sub._id, destination.json().data._id, key]) {
        assert.ok(derived?.keys.includes(locked), `${locked} is locked up front`);
      }
    }
  });

  it('never sweeps a sweep’s own credit again', async () => {
    // A sweeps into B, which sweeps into the main account on credits of its own.
    const b = await sweepingSubAccount(main, 0);
    const a = await sweepingSubAccount(b, 0);
    await receive(a.accountNumber, 7_500n);
    assert.equal(await bookBalance(a), 0);
    assert.equal(await bookBalance(b), 75, 'the swept amount stays where the sweep put it');
    assert.deepEqual(await sweepsFrom(b), []);
  });

  it('sweeps each of several credits to one account that arrive together', async () => {
    const sub = await sweepingSubAccount(main, 5);
    await Promise.all([1_000n, 2_000n, 3_000n].map((amount) => receive(sub.accountNumber, amount)));
    assert.equal(await bookBalance(sub), 5);
    const outwards = (await sweepsFrom(sub)).filter((row) => row.type === 'Outwards');
    assert.equal(
      outwards.reduce((sum, row) => sum + BigInt(row.amount_kobo), 0n),
      5_500n,
      'everything above the retained ₦5 swept, whatever the credits’ order',
    );
    await assertLedgerSound();
  });
});
