import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  individualSubAccountBody,
  SANDBOX_BVN,
  SANDBOX_OTP,
  sandboxCredit,
  sendTransfer,
  signedInClient,
  verifyIdentity,
} from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';

// Sandbox identities (docs/sandbox-identity.md) and NIP outcomes (docs/sandbox-nip.md).
const OTHER_BVN = '22212345682';
const NIN = '12345678901';
const OUR_BANK = '999240';
/** ₦x.05 fails at the NIP simulator: the hold is voided and the amount given back. */
const FAILING_NIP_KOBO = 0.05;

// A KYC level 2 account moves ₦100 per transfer and ₦250 a day; a client's own account (level
// 3) ₦400 a day, the general limit.
const LIMITS = { TRANSFER_LIMITS_BY_KYC_NAIRA: '2:100/250', TRANSFER_LIMIT_DAILY_NAIRA: '400' };

type Headers = Record<string, string>;
interface Opened {
  readonly _id: string;
  readonly accountNumber: string;
}

describe('daily limits count per verified identity, across its sub-accounts', () => {
  let testApp: TestApp;
  let headers: Headers;
  let clientId: string;
  let main: Opened;

  before(async () => {
    testApp = await buildTestApp(LIMITS);
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    clientId = signedIn.client.ibsClientId;
    main = { _id: signedIn.client.mainAccountId, accountNumber: signedIn.client.mainAccountNumber };
    // The main account pays for the identity checks.
    await sandboxCredit(testApp.app, main.accountNumber, 50_000);
  });
  after(() => testApp?.close());

  async function verified(type: string, number: string, extra: Record<string, unknown> = {}) {
    if (type === 'BVNUSSD') {
      // The code the customer dialled for comes with the check itself (no OTP step).
      const started = await testApp.app.inject({
        method: 'POST',
        url: '/identity/v2',
        headers,
        payload: { type, number, otp: SANDBOX_OTP, debitAccountNumber: main.accountNumber },
      });
      assert.equal(started.statusCode, 200, started.body);
      return started.json().data._id as string;
    }
    return verifyIdentity(testApp.app, headers, {
      type,
      number,
      debitAccountNumber: main.accountNumber,
      ...extra,
    });
  }

  /** A sub-account on a fresh check of this identity (funded with ₦300). */
  async function subAccount(
    type: 'BVN' | 'BVNUSSD' | 'NIN' | 'vNIN',
    number: string,
    extra: Record<string, unknown> = {},
  ): Promise<Opened> {
    // A vNIN is checked for the enterprise the customer generated it for.
    const identityId = await verified(type, number, type === 'vNIN' ? { verifierId: 'V1' } : {});
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers,
      payload: individualSubAccountBody(identityId, {
        identityType: type,
        identityNumber: number,
        ...extra,
      }),
    });
    assert.equal(response.statusCode, 200, response.body);
    const opened = response.json().data as Opened;
    await sandboxCredit(testApp.app, opened.accountNumber, 300);
    return opened;
  }

  /** An intra-bank transfer to the main account (completed at once, no charges). */
  const toMain = (from: Opened, amount: number) =>
    sendTransfer(testApp.app, headers, {
      debitAccountNumber: from.accountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: main.accountNumber,
      amount,
    });

  async function assertCompleted(from: Opened, amount: number) {
    const response = await toMain(from, amount);
    assert.equal(response.statusCode, 200, `₦${amount}: ${response.body}`);
    assert.equal(response.json().data.status, 'Completed');
  }

  async function assertOverTheLimit(from: Opened, amount: number) {
    const response = await toMain(from, amount);
    assert.equal(response.statusCode, 402, `₦${amount}: ${response.body}`);
    assert.equal(response.json().code, 'TRANSFER_LIMIT_EXCEEDED');
    return response.json().message as string;
  }

  async function keyOf(account: Opened): Promise<string | null> {
    const [row] = await testApp.db.query<{ daily_limit_key: string | null }>(
      'SELECT daily_limit_key FROM accounts WHERE id = $1',
      [account._id],
    );
    return row?.daily_limit_key ?? null;
  }

  async function dailyTotal(key: string): Promise<bigint> {
    const [row] = await testApp.db.query<{ total_kobo: bigint }>(
      'SELECT total_kobo FROM daily_outbound_totals WHERE limit_key = $1 AND day = $2::date',
      [key, testApp.clock.now().toISOString().slice(0, 10)],
    );
    return row?.total_kobo ?? 0n;
  }

  it('two sub-accounts on the same BVN share one limit: each is under it, together they are not', async () => {
    const first = await subAccount('BVN', SANDBOX_BVN);
    const second = await subAccount('BVN', SANDBOX_BVN);
    const key = await keyOf(first);
    assert.ok(key !== null);
    assert.equal(await keyOf(second), key, 'two checks of one BVN: one identity');
    assert.match(key, new RegExp(`^person:${clientId}:BVN:[0-9a-f]{64}$`));
    assert.ok(!key.includes(SANDBOX_BVN), 'the key never holds the number');

    await assertCompleted(first, 100);
    await assertCompleted(first, 100);
    // ₦100 is under the second account's own ₦250, but the person would reach ₦300.
    const message = await assertOverTheLimit(second, 100);
    assert.match(message, /daily limit that the accounts opened on this identity share/);
    await assertCompleted(second, 50);
    assert.equal(await dailyTotal(key), 25_000n);
    await assertOverTheLimit(first, 0.01);
    await assertOverTheLimit(second, 0.01);
  });

  it('the same BVN checked by USSD code is the same person, so it shares that limit', async () => {
    const byUssd = await subAccount('BVNUSSD', SANDBOX_BVN);
    const byBvn = await subAccount('BVN', SANDBOX_BVN);
    assert.equal(await keyOf(byUssd), await keyOf(byBvn));
    // The BVN's ₦250 is spent (the test above): nothing more today, from any of its accounts.
    await assertOverTheLimit(byUssd, 1);
  });

  it('sub-accounts on different identities each have their own limit', async () => {
    const otherPerson = await subAccount('BVN', OTHER_BVN);
    const byNin = await subAccount('NIN', NIN);
    assert.notEqual(await keyOf(otherPerson), await keyOf(byNin));
    for (const account of [otherPerson, byNin]) {
      await assertCompleted(account, 100);
      await assertCompleted(account, 100);
      await assertCompleted(account, 50);
      await assertOverTheLimit(account, 0.01);
    }
  });

  it("a failed NIP transfer gives its amount back to the person's total, not the account's", async () => {
    const person = '22212345693';
    const failing = await subAccount('BVN', person);
    const sibling = await subAccount('BVN', person);
    const key = await keyOf(failing);
    assert.ok(key !== null);
    const failed = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: failing.accountNumber,
      amount: 99 + FAILING_NIP_KOBO,
    });
    assert.equal(failed.statusCode, 200, failed.body);
    assert.equal(failed.json().data.status, 'Failed');
    const [row] = await testApp.db.query<{ daily_limit_key: string | null }>(
      'SELECT daily_limit_key FROM transfers WHERE id = $1',
      [failed.json().data._id],
    );
    assert.equal(row?.daily_limit_key, key, 'the transfer remembers the key it counted under');
    assert.equal(await dailyTotal(key), 0n);
    // The whole ₦250 is the person's again, from either account.
    await assertCompleted(sibling, 100);
    await assertCompleted(failing, 100);
    await assertCompleted(sibling, 50);
    await assertOverTheLimit(failing, 0.01);
  });

  it("an auto-sweep counts towards its person's total (no limit applies to the sweep itself)", async () => {
    const person = '22212345626';
    const sibling = await subAccount('BVN', person);
    // Funded with ₦300, it keeps ₦100 and sweeps ₦200 to the main account.
    const sweeping = await subAccount('BVN', person, {
      autoSweep: true,
      autoSweepDetails: {
        destinationAccountNumber: main.accountNumber,
        retainAmount: 100,
        minimumAmount: 1,
      },
    });
    const key = await keyOf(sweeping);
    assert.ok(key !== null);
    assert.equal(await dailyTotal(key), 20_000n);
    const [sweep] = await testApp.db.query<{ daily_limit_key: string | null }>(
      `SELECT daily_limit_key FROM transfers WHERE account_id = $1 AND type = 'Outwards'`,
      [sweeping._id],
    );
    assert.equal(sweep?.daily_limit_key, key);
    await assertCompleted(sibling, 50);
    await assertOverTheLimit(sibling, 0.01);
  });

  it("a client's own accounts keep a limit each, by account, apart from its sub-accounts'", async () => {
    const own = await Promise.all(
      [0, 1].map(async () => {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/accounts',
          headers,
          payload: {},
        });
        const account = response.json().data as Opened;
        await sandboxCredit(testApp.app, account.accountNumber, 1_000);
        return account;
      }),
    );
    for (const account of own) {
      assert.equal(await keyOf(account), null, 'no identity: the account is its own key');
      await assertCompleted(account, 400);
      await assertOverTheLimit(account, 0.01);
      assert.equal(await dailyTotal(account._id), 40_000n);
    }
  });
});
