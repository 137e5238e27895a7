// PostgreSQL only: a person's daily limit under concurrent transfers from several of their
// sub-accounts, placed by two service graphs on one database (as two server processes would),
// each group-committing its own batches. Each graph sends from its own accounts, to its own
// beneficiary: its batches and the other's share no account, only the persons, and place items
// for both persons in any order. Only the limit keys' locks keep two such batches from
// deadlocking on the persons' daily rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import {
  individualSubAccountBody,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  sandboxCredit,
  signedInClient,
  verifyIdentity,
} from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import { sleep } from './server-fixture.ts';

const OUR_BANK = '999240';
/** KYC level 2: ₦100 per transfer, ₦1,000 a day per person. */
const LIMITS = { TRANSFER_LIMITS_BY_KYC_NAIRA: '2:100/1000' };
const DAILY_LIMIT_KOBO = 100_000n;
/** Per person: half of them send through each service graph (lane). */
const ACCOUNTS_PER_PERSON = 4;
/**
 * Rounds of transfers sent at once, about ₦10 each: ~₦2,400 asked per person, so that the limit
 * is reached late (a refused item holds no row; an accepted one holds its row until commit).
 */
const ROUNDS = 8;
const PER_ROUND = 60;
const MAX_NAIRA = 19;
/** NIP kobo parts (docs/sandbox-nip.md): .00 succeeds, .05 fails (its amount given back). */
const NIP_KOBO = [0, 5];
/**
 * A backend reports its deadlocks to pg_stat_database when idle, at most once a second: wait
 * that long before reading the count.
 */
const STATS_FLUSH_MS = 1_500;

type Headers = Record<string, string>;
interface SubAccount {
  readonly id: string;
  readonly accountNumber: string;
  readonly person: string;
  /** Which service graph its transfers go to (0 or 1). */
  readonly lane: number;
}
interface Answer {
  readonly person: string;
  readonly status: number;
  readonly code: string;
}

describe('a daily limit per person under concurrent transfers (PostgreSQL)', () => {
  let testApp: TestApp;
  let apps: FastifyInstance[];
  let headers: Headers;
  let mainAccountNumber: string;
  /** Each lane's intra-bank beneficiary (an own account of the client), and its enquiry. */
  const beneficiaries: { accountNumber: string; reference: string }[] = [];
  let nipReference: string;

  before(async () => {
    testApp = await buildTestApp(LIMITS, { poolSize: 40 });
    // A second service graph on the same database: its own group commits, like another process.
    const second = await buildSecondApp(testApp);
    apps = [testApp.app, second];
    const signedIn = await signedInClient(testApp, 'Many Wallets Ltd');
    headers = signedIn.headers;
    mainAccountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, mainAccountNumber, 10_000);
    for (const accountNumber of [mainAccountNumber, await openOwnAccount()]) {
      beneficiaries.push({ accountNumber, reference: await enquire(OUR_BANK, accountNumber) });
    }
    nipReference = await enquire(OTHER_BANK, OTHER_BANK_ACCOUNT);
  });
  after(async () => {
    await apps?.[1]?.close();
    await testApp?.close();
  });

  async function openOwnAccount(): Promise<string> {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data.accountNumber;
  }

  /** A sub-account on a fresh check of the person's BVN, funded beyond any limit. */
  async function openSubAccount(person: string, lane: number): Promise<SubAccount> {
    const identityId = await verifyIdentity(testApp.app, headers, {
      type: 'BVN',
      number: person,
      debitAccountNumber: mainAccountNumber,
    });
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers,
      payload: individualSubAccountBody(identityId, { identityNumber: person }),
    });
    assert.equal(response.statusCode, 200, response.body);
    const { _id: id, accountNumber } = response.json().data;
    // Enough for every transfer and its NIP charges: only the limit refuses.
    await sandboxCredit(testApp.app, accountNumber, 20_000);
    return { id, accountNumber, person, lane };
  }

  async function openPersons(persons: readonly string[]): Promise<SubAccount[]> {
    const accounts: SubAccount[] = [];
    for (const person of persons) {
      for (let count = 0; count < ACCOUNTS_PER_PERSON; count += 1) {
        accounts.push(await openSubAccount(person, count % 2));
      }
    }
    return accounts;
  }

  async function enquire(bankCode: string, accountNumber: string): Promise<string> {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload: { bankCode, accountNumber },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data.sessionId;
  }

  /** A transfer through the account's lane: intra-bank to the lane's beneficiary, or NIP. */
  async function send(from: SubAccount, amount: number, nip = false): Promise<Answer> {
    const beneficiary = beneficiaries[from.lane] as { accountNumber: string; reference: string };
    const response = await (apps[from.lane] as FastifyInstance).inject({
      method: 'POST',
      url: '/transfers',
      headers,
      payload: {
        nameEnquiryReference: nip ? nipReference : beneficiary.reference,
        debitAccountNumber: from.accountNumber,
        beneficiaryBankCode: nip ? OTHER_BANK : OUR_BANK,
        beneficiaryAccountNumber: nip ? OTHER_BANK_ACCOUNT : beneficiary.accountNumber,
        amount,
        saveBeneficiary: false,
      },
    });
    const body = response.json();
    const code = body.code ?? body.data?.status ?? response.body;
    return { person: from.person, status: response.statusCode, code };
  }

  async function deadlockCount(): Promise<bigint> {
    const [row] = await testApp.db.query<{ deadlocks: bigint }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    return row?.deadlocks ?? -1n;
  }

  /** The deadlocks PostgreSQL saw while `work` ran. */
  async function deadlocksDuring(work: () => Promise<void>): Promise<number> {
    await sleep(STATS_FLUSH_MS);
    const before = await deadlockCount();
    await work();
    await sleep(STATS_FLUSH_MS);
    return Number((await deadlockCount()) - before);
  }

  function unexpectedAnswers(answers: readonly Answer[]): Answer[] {
    return answers.filter(
      (answer) =>
        !(answer.status === 200 && ['Completed', 'Failed'].includes(answer.code)) &&
        !(answer.status === 402 && answer.code === 'TRANSFER_LIMIT_EXCEEDED'),
    );
  }

  describe('rounds of random transfers from two persons, four sub-accounts each', () => {
    const PERSONS = ['22212345671', '22212345682'];
    const answers: Answer[] = [];
    let deadlocks = -1;

    before(async () => {
      const accounts = await openPersons(PERSONS);
      deadlocks = await deadlocksDuring(async () => {
        for (let round = 0; round < ROUNDS; round += 1) {
          answers.push(...(await Promise.all(Array.from({ length: PER_ROUND }, randomTransfer))));
        }
      });

      function randomTransfer(_: unknown, index: number) {
        const from = accounts[Math.floor(Math.random() * accounts.length)] as SubAccount;
        const naira = 1 + Math.floor(Math.random() * MAX_NAIRA);
        const nip = index % 4 === 0;
        const kobo = nip ? (NIP_KOBO[index % 8 === 0 ? 0 : 1] as number) : index % 100;
        return send(from, Number(`${naira}.${String(kobo).padStart(2, '0')}`), nip);
      }
    });

    it('answered every request with a transfer or TRANSFER_LIMIT_EXCEEDED, and no error', () => {
      assert.deepEqual(unexpectedAnswers(answers), []);
      for (const person of PERSONS) {
        assert.ok(
          answers.some((answer) => answer.person === person && answer.status === 402),
          'every person asked for more than the limit',
        );
      }
      assert.ok(
        answers.some((answer) => answer.code === 'Failed'),
        'some NIP transfers failed',
      );
    });

    it("took the limit keys' locks in one order: PostgreSQL saw no deadlock", () => {
      assert.equal(deadlocks, 0);
    });

    it("kept each person's accepted total within the limit, and the counter exactly at it", async () => {
      const totals = await testApp.db.query<{ key: string; accepted: bigint; counted: bigint }>(`
        SELECT a.daily_limit_key AS key, sum(t.amount_kobo)::bigint AS accepted,
               (SELECT d.total_kobo FROM daily_outbound_totals d
                 WHERE d.limit_key = a.daily_limit_key) AS counted
          FROM transfers t JOIN accounts a ON a.id = t.account_id
         WHERE a.is_sub_account AND t.type = 'Outwards' AND t.status <> 'Failed'
         GROUP BY a.daily_limit_key`);
      assert.equal(totals.length, PERSONS.length, 'one key per person');
      for (const total of totals) {
        assert.ok(total.accepted <= DAILY_LIMIT_KOBO, `${total.accepted} over the limit`);
        assert.equal(total.counted, total.accepted, 'the counter is the sum of what counts');
      }
    });
  });

  describe('two batches placing for the same two persons in opposite orders, at once', () => {
    const PERSONS = ['22212345693', '22212345604'];
    const answers: Answer[] = [];
    let deadlocks = -1;

    // Every write of a daily row is slowed down (a test-only trigger), so that each batch still
    // runs its first item when the other starts: batch one writes person A's row, then B's;
    // batch two B's, then A's. Without the keys' locks taken up front, each would hold one row
    // and wait for the other's (a deadlock, which PostgreSQL breaks after deadlock_timeout).
    before(async () => {
      const accounts = await openPersons(PERSONS);
      const [a0, a1, b0, b1] = [0, 1].flatMap((person) =>
        [0, 1].map(
          (lane) =>
            accounts.find(
              (account) => account.person === PERSONS[person] && account.lane === lane,
            ) as SubAccount,
        ),
      ) as [SubAccount, SubAccount, SubAccount, SubAccount];
      await testApp.db.exec(`
        CREATE FUNCTION test_slow_daily_row() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
        CREATE TRIGGER test_slow_daily_row BEFORE INSERT ON daily_outbound_totals
          FOR EACH ROW EXECUTE FUNCTION test_slow_daily_row();`);
      try {
        deadlocks = await deadlocksDuring(async () => {
          // Sent in one turn, each lane's two requests are group-committed as one batch.
          answers.push(
            ...(await Promise.all([send(a0, 10), send(b0, 10), send(b1, 10), send(a1, 10)])),
          );
        });
      } finally {
        await testApp.db.exec(`DROP TRIGGER test_slow_daily_row ON daily_outbound_totals;
          DROP FUNCTION test_slow_daily_row();`);
      }
    });

    it('placed all four, and PostgreSQL saw no deadlock', () => {
      assert.deepEqual(
        answers.map((answer) => answer.code),
        ['Completed', 'Completed', 'Completed', 'Completed'],
      );
      assert.equal(deadlocks, 0);
    });
  });

  it('keeps the ledger invariants: Σ = 0, balance = Σ entries, no negative, no gap', async () => {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
    const negative = await testApp.db.query(
      'SELECT id FROM ledger_accounts WHERE NOT allow_negative AND balance_kobo < 0',
    );
    assert.deepEqual(negative, []);
    const held = await testApp.db.query(
      "SELECT id FROM ledger_holds WHERE status = 'pending' UNION ALL SELECT id FROM transfers WHERE status = 'Processing'",
    );
    assert.deepEqual(held, [], 'every NIP transfer settled at once (no timeouts sent)');
  });
});
