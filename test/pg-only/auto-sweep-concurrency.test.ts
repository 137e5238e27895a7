// PostgreSQL only: an account with auto-sweep on, credited at once from every side through two
// service graphs on one database (as two server processes would): intra-bank transfers from
// its person's other sub-accounts (whose day the sweeps count in too), transfers back from the
// sweep's own destination, and credits from other banks; meanwhile the same sub-accounts and the
// destination also pay the client's main account, in batches that write the person's daily row
// and the destination's balance without the sweeping account. Each credit's sweep runs in the
// call that credits it, under locks its batch took up front (the destination, the person's daily
// key): every credit is swept down to the retained amount at once, nothing fails, and the
// person's day counts their transfers and the sweeps exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { adminHeaders, openSubAccount, sandboxCredit, signedInClient } from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import { sleep } from './server-fixture.ts';

const OUR_BANK = '999240';
const ROUNDS = 4;
const PER_ROUND = 40;
/** A backend reports its deadlocks to pg_stat_database when idle, at most once a second. */
const STATS_FLUSH_MS = 1_500;

interface Opened {
  readonly _id: string;
  readonly accountNumber: string;
}
const SIDES = ['sibling0', 'sibling1', 'destination', 'bank'] as const;
type Side = (typeof SIDES)[number];
interface Move {
  readonly from: Side;
  readonly to: 'sweeping' | 'main';
  readonly kobo: number;
}

describe('auto-sweep under concurrent credits from every side (PostgreSQL)', () => {
  let testApp: TestApp;
  let apps: FastifyInstance[];
  let headers: Record<string, string>;
  let accounts: Record<'main' | 'sweeping' | 'sibling0' | 'sibling1' | 'destination', Opened>;
  const enquiries = new Map<string, string>();
  const moves: Move[] = [];
  const answers: string[] = [];
  let deadlocks = -1;

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 30 });
    apps = [testApp.app, await buildSecondApp(testApp)];
    const signedIn = await signedInClient(testApp, 'Sweeping Ltd');
    headers = signedIn.headers;
    const main = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, main, 10_000);
    const mainAccount = { _id: signedIn.client.mainAccountId, accountNumber: main };
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    const destination = opened.json().data as Opened;
    // One person's three sub-accounts: one sweeps to the client's own account, two send to it.
    const sweeping = await openSubAccount(testApp.app, headers, main, {
      autoSweep: true,
      autoSweepDetails: { destinationAccountNumber: destination.accountNumber, retainAmount: 1 },
    });
    const sibling0 = await openSubAccount(testApp.app, headers, main);
    const sibling1 = await openSubAccount(testApp.app, headers, main);
    accounts = { main: mainAccount, sweeping, sibling0, sibling1, destination };
    for (const funded of [sibling0, sibling1, destination]) {
      await sandboxCredit(testApp.app, funded.accountNumber, 2_000);
    }
    for (const to of [sweeping, mainAccount]) {
      const enquired = await testApp.app.inject({
        method: 'POST',
        url: '/transfers/name-enquiry',
        headers,
        payload: { bankCode: OUR_BANK, accountNumber: to.accountNumber },
      });
      enquiries.set(to.accountNumber, enquired.json().data.sessionId);
    }

    await sleep(STATS_FLUSH_MS);
    const deadlocksBefore = await deadlockCount();
    for (let round = 0; round < ROUNDS; round += 1) {
      answers.push(...(await Promise.all(Array.from({ length: PER_ROUND }, move))));
    }
    await sleep(STATS_FLUSH_MS);
    deadlocks = Number((await deadlockCount()) - deadlocksBefore);
  });
  after(async () => {
    await apps?.[1]?.close();
    await testApp?.close();
  });

  /**
   * A credit to the sweeping account from each side in turn, through a random graph; one time in
   * three, a sub-account or the destination pays the main account instead.
   */
  async function move(_: unknown, index: number): Promise<string> {
    const from = SIDES[index % SIDES.length] as Side;
    const to = from !== 'bank' && Math.random() < 1 / 3 ? accounts.main : accounts.sweeping;
    // ₦2 to ₦20 with kobo: every credit takes the account above the retained ₦1 by at least ₦1.
    const kobo = 200 + Math.floor(Math.random() * 1_800);
    const amount = kobo / 100;
    const app = apps[Math.floor(Math.random() * 2)] as FastifyInstance;
    const response =
      from === 'bank'
        ? await app.inject({
            method: 'POST',
            url: '/admin/sandbox/credits',
            headers: adminHeaders,
            payload: { accountNumber: accounts.sweeping.accountNumber, amount },
          })
        : await app.inject({
            method: 'POST',
            url: '/transfers',
            headers,
            payload: {
              nameEnquiryReference: enquiries.get(to.accountNumber),
              debitAccountNumber: accounts[from].accountNumber,
              beneficiaryBankCode: OUR_BANK,
              beneficiaryAccountNumber: to.accountNumber,
              amount,
              saveBeneficiary: false,
            },
          });
    const answer = `${response.statusCode} ${response.json().data?.status ?? response.body}`;
    if (response.statusCode < 300) {
      moves.push({ from, to: to === accounts.main ? 'main' : 'sweeping', kobo });
    }
    return answer;
  }

  async function deadlockCount(): Promise<bigint> {
    const [row] = await testApp.db.query<{ deadlocks: bigint }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    return row?.deadlocks ?? -1n;
  }

  const balanceKobo = async (account: Opened) =>
    (
      await testApp.db.query<{ balance_kobo: bigint }>(
        'SELECT balance_kobo FROM ledger_account_balances WHERE account_id = $1',
        [account._id],
      )
    )[0]?.balance_kobo;
  /** What moved from these sides (to the sweeping account only, when asked). */
  const sum = (from: readonly Side[], to?: Move['to']) =>
    BigInt(
      moves
        .filter((m) => from.includes(m.from) && (to === undefined || m.to === to))
        .reduce((total, m) => total + m.kobo, 0),
    );
  const inflow = () => sum(SIDES, 'sweeping');

  it('completed every transfer and credit, and PostgreSQL saw no deadlock', () => {
    assert.deepEqual(
      answers.filter((answer) => !/^20[01] Completed$/.test(answer)),
      [],
    );
    assert.equal(moves.length, ROUNDS * PER_ROUND);
    assert.equal(deadlocks, 0);
  });

  it('swept every credit down to the retained ₦1, into the destination', async () => {
    assert.equal(await balanceKobo(accounts.sweeping), 100n);
    const [swept] = await testApp.db.query<{ total: bigint; count: bigint }>(
      `SELECT sum(amount_kobo)::bigint AS total, count(*)::bigint AS count FROM transfers
        WHERE account_id = $1 AND type = 'Outwards' AND narration = 'Auto-sweep'`,
      [accounts.sweeping._id],
    );
    assert.equal(swept?.total, inflow() - 100n);
    const credits = moves.filter((m) => m.to === 'sweeping').length;
    assert.equal(swept?.count, BigInt(credits), 'one sweep per credit');
    assert.equal(
      await balanceKobo(accounts.destination),
      200_000n - sum(['destination']) + inflow() - 100n,
    );
  });

  it("counted the person's transfers and the sweeps in their day, exactly", async () => {
    const [row] = await testApp.db.query<{ total: bigint }>(
      `SELECT d.total_kobo AS total FROM daily_outbound_totals d
        JOIN accounts a ON a.daily_limit_key = d.limit_key WHERE a.id = $1`,
      [accounts.sweeping._id],
    );
    assert.equal(row?.total, sum(['sibling0', 'sibling1']) + inflow() - 100n);
  });

  it('keeps the ledger invariants: Σ = 0, balance = Σ entries, no negative, no gap', async () => {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  });
});
