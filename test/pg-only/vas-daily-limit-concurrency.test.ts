// PostgreSQL only: one identity's daily limit under VAS purchases and transfers sent at once
// from its sub-accounts, through two service graphs on one database (as two server processes
// would), each group-committing its own purchase and transfer batches. Purchases and transfers
// add to one daily row per identity: the limit holds whichever kind of batch writes it.
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
  VAS,
  verifyIdentity,
} from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import { sleep } from './server-fixture.ts';

const OUR_BANK = '999240';
/** KYC level 2: ₦100 per transfer, ₦1,000 a day per person. */
const LIMITS = { TRANSFER_LIMITS_BY_KYC_NAIRA: '2:100/1000' };
const DAILY_LIMIT_KOBO = 100_000n;
const PERSON = '22212345671';
const ACCOUNTS = 4;
/** About ₦2,500 asked in all: the limit is reached halfway. */
const ROUNDS = 6;
const PER_ROUND = 40;
/** A backend reports its deadlocks to pg_stat_database when idle, at most once a second. */
const STATS_FLUSH_MS = 1_500;

interface SubAccount {
  readonly accountNumber: string;
  readonly lane: number;
}
interface Answer {
  readonly kind: 'vas' | 'transfer';
  readonly status: number;
  readonly code: string;
}

describe("an identity's daily limit under concurrent VAS purchases and transfers (PostgreSQL)", () => {
  let testApp: TestApp;
  let apps: FastifyInstance[];
  let headers: Record<string, string>;
  let mainAccountNumber: string;
  let intraBankReference: string;
  let nipReference: string;
  const answers: Answer[] = [];
  let deadlocks = -1;

  before(async () => {
    testApp = await buildTestApp(LIMITS, { poolSize: 40 });
    apps = [testApp.app, await buildSecondApp(testApp)];
    const signedIn = await signedInClient(testApp, 'Bills And Transfers Ltd');
    headers = signedIn.headers;
    mainAccountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, mainAccountNumber, 10_000);
    intraBankReference = await enquire(OUR_BANK, mainAccountNumber);
    nipReference = await enquire(OTHER_BANK, OTHER_BANK_ACCOUNT);
    const accounts: SubAccount[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      accounts.push({ accountNumber: await openSubAccount(), lane: index % 2 });
    }
    deadlocks = await deadlocksDuring(async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: PER_ROUND }, (_, index) =>
              randomRequest(accounts[Math.floor(Math.random() * ACCOUNTS)] as SubAccount, index),
            ),
          )),
        );
      }
    });
  });
  after(async () => {
    await apps?.[1]?.close();
    await testApp?.close();
  });

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

  /** A sub-account on a fresh check of the person's BVN, funded beyond any limit. */
  async function openSubAccount(): Promise<string> {
    const identityId = await verifyIdentity(testApp.app, headers, {
      type: 'BVN',
      number: PERSON,
      debitAccountNumber: mainAccountNumber,
    });
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers,
      payload: individualSubAccountBody(identityId, { identityNumber: PERSON }),
    });
    assert.equal(response.statusCode, 200, response.body);
    const { accountNumber } = response.json().data;
    await sandboxCredit(testApp.app, accountNumber, 20_000);
    return accountNumber;
  }

  /**
   * Half airtime (₦50–₦99; every fourth one declined by the biller, its amount given back),
   * half transfers (₦1–₦19; every fourth NIP, half of those failing, their amount given back).
   */
  async function randomRequest(from: SubAccount, index: number): Promise<Answer> {
    const app = apps[from.lane] as FastifyInstance;
    const vas = index % 2 === 0;
    const response = vas
      ? await app.inject({
          method: 'POST',
          url: '/vas/pay/airtime',
          headers,
          payload: {
            serviceCategoryId: VAS.mtnAirtime,
            amount: 50 + Math.floor(Math.random() * 50),
            channel: 'WEB',
            debitAccountNumber: from.accountNumber,
            phoneNumber: index % 8 === 0 ? '08031230000' : '08031234567',
          },
        })
      : await app.inject({
          method: 'POST',
          url: '/transfers',
          headers,
          payload: transferBody(from, index),
        });
    const body = response.json();
    const code = body.code ?? body.data?.status ?? response.body;
    return { kind: vas ? 'vas' : 'transfer', status: response.statusCode, code };
  }

  function transferBody(from: SubAccount, index: number) {
    const nip = index % 4 === 1;
    const naira = 1 + Math.floor(Math.random() * 19);
    return {
      nameEnquiryReference: nip ? nipReference : intraBankReference,
      debitAccountNumber: from.accountNumber,
      beneficiaryBankCode: nip ? OTHER_BANK : OUR_BANK,
      beneficiaryAccountNumber: nip ? OTHER_BANK_ACCOUNT : mainAccountNumber,
      // NIP kobo .05 fails at the simulator (docs/sandbox-nip.md).
      amount: nip && index % 8 === 1 ? naira + 0.05 : naira,
      saveBeneficiary: false,
    };
  }

  async function deadlocksDuring(work: () => Promise<void>): Promise<number> {
    const count = async () => {
      const [row] = await testApp.db.query<{ deadlocks: bigint }>(
        'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
      );
      return row?.deadlocks ?? -1n;
    };
    await sleep(STATS_FLUSH_MS);
    const before = await count();
    await work();
    await sleep(STATS_FLUSH_MS);
    return Number((await count()) - before);
  }

  it('answered each with its outcome or TRANSFER_LIMIT_EXCEEDED, both kinds refused at the limit', () => {
    const expected = (answer: Answer) =>
      (answer.status === 402 && answer.code === 'TRANSFER_LIMIT_EXCEEDED') ||
      (answer.kind === 'vas' && answer.status === 200) ||
      (answer.kind === 'vas' && answer.status === 400 && answer.code === 'VAS_PURCHASE_FAILED') ||
      (answer.kind === 'transfer' &&
        answer.status === 200 &&
        ['Completed', 'Failed'].includes(answer.code));
    assert.deepEqual(
      answers.filter((answer) => !expected(answer)),
      [],
    );
    for (const kind of ['vas', 'transfer'] as const) {
      assert.ok(
        answers.some((answer) => answer.kind === kind && answer.status === 402),
        `some ${kind} requests met the limit`,
      );
      assert.ok(
        answers.some((answer) => answer.kind === kind && answer.status === 200),
        `some ${kind} requests went through`,
      );
    }
  });

  it('kept what the identity spent within the limit, and its counter exactly at that sum', async () => {
    const [row] = await testApp.db.query<{ key: string; spent: bigint; counted: bigint }>(`
      WITH person AS (SELECT DISTINCT daily_limit_key AS key FROM accounts WHERE is_sub_account),
           spent AS (
             SELECT t.amount_kobo FROM transfers t JOIN accounts a ON a.id = t.account_id
              WHERE a.is_sub_account AND t.type = 'Outwards' AND t.status <> 'Failed'
             UNION ALL
             SELECT p.amount_kobo FROM vas_purchases p JOIN accounts a ON a.id = p.account_id
              WHERE a.is_sub_account AND p.status <> 'failed')
      SELECT (SELECT key FROM person) AS key, (SELECT sum(amount_kobo) FROM spent)::bigint AS spent,
             (SELECT total_kobo FROM daily_outbound_totals
               WHERE limit_key = (SELECT key FROM person)) AS counted`);
    assert.ok(row !== undefined);
    assert.ok(row.spent <= DAILY_LIMIT_KOBO, `${row.spent} kobo spent, over the limit`);
    // Declined purchases give back what they held after others were refused: some room is left.
    assert.ok(row.spent > DAILY_LIMIT_KOBO / 2n, `${row.spent}: the limit was reached`);
    assert.equal(row.counted, row.spent, 'the counter is the sum of what counts');
  });

  it('PostgreSQL saw no deadlock, and the ledger invariants hold', async () => {
    assert.equal(deadlocks, 0);
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  });
});
