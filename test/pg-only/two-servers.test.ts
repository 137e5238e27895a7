// PostgreSQL only: two server processes on one database share the load, including transfers in
// both directions between the same two accounts sent to different servers at once (A→B to one,
// B→A to the other), which deadlock unless every path locks accounts in one order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServerFixture, signUpClient } from './server-fixture.ts';
import {
  type Account,
  answeredButNotStored,
  answeredTransfer,
  halfAppliedTransfers,
  keysUsedTwice,
  type LaneRequest,
  LoadBank,
  moneyProblems,
  pick,
  randomKobo,
  randomNipKobo,
  settled,
  startLoad,
  tally,
} from './transfer-load.ts';

const SECRETS = {
  adminToken: 'two-servers-admin-token-0123456789abcdefghij',
  tokenSigningSecret: 'two-servers-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://two-servers.openibs.invalid',
};
/** Per direction: this many lanes send A→B to the first server, as many B→A to the second. */
const CROSS_LANES = 6;
const HOT_LANES = 4;
const SPREAD_LANES = 6;
const NIP_LANES = 2;
/** Lanes that send each request, with one Idempotency-Key, to both servers at once. */
const TWIN_LANES = 2;
const PAIR_FUNDING_NAIRA = 3_000;
const HOT_FUNDING_NAIRA = 1_500;
const SPREAD_ACCOUNTS = 4;
const SPREAD_FUNDING_NAIRA = 2_000;
const LOAD_MS = 4_000;
const SETTLE_TIMEOUT_MS = 30_000;
const SERVER_ENV = {
  NIP_SIMULATOR_LATENCY_MS: '100',
  STATUS_QUERY_SCHEDULE_SECONDS: '1',
  STATUS_QUERY_POLL_INTERVAL_MS: '200',
};

describe('two servers on one database under concurrent load (PostgreSQL)', {
  timeout: 120_000,
}, () => {
  const fixture = new ServerFixture('two-servers', SECRETS);
  before(() => fixture.open());
  after(() => fixture.close());

  test('no 5xx, no deadlock reaches a client, every answer is stored, the ledger verifies', async (t) => {
    const [one, two] = await Promise.all([
      fixture.startServer(SERVER_ENV),
      fixture.startServer(SERVER_ENV),
    ]);
    const servers = [one.baseUrl, two.baseUrl];
    const client = await signUpClient(one.baseUrl, SECRETS, 'Two Servers Ltd');
    const bank = await LoadBank.open(fixture, two.baseUrl, client, [
      PAIR_FUNDING_NAIRA,
      PAIR_FUNDING_NAIRA,
      HOT_FUNDING_NAIRA,
      ...Array<number>(SPREAD_ACCOUNTS).fill(SPREAD_FUNDING_NAIRA),
    ]);
    const [a, b, hot, ...spread] = bank.accounts as [Account, Account, Account, ...Account[]];
    const everyone = bank.accounts;
    const eitherServer = () => [pick(servers)];

    const lanes: ((key: string) => LaneRequest)[] = [];
    for (let lane = 0; lane < CROSS_LANES; lane += 1) {
      lanes.push((key) => bank.intra(key, a, b, randomKobo(20, 200), [one.baseUrl]));
      lanes.push((key) => bank.intra(key, b, a, randomKobo(20, 200), [two.baseUrl]));
    }
    for (let lane = 0; lane < HOT_LANES; lane += 1) {
      lanes.push((key) => bank.intra(key, hot, pick(spread), randomKobo(50, 250), eitherServer()));
    }
    for (let lane = 0; lane < SPREAD_LANES; lane += 1) {
      lanes.push((key) => {
        const from = pick(spread);
        const beneficiary = pick(everyone.filter((account) => account !== from));
        return bank.intra(key, from, beneficiary, randomKobo(20, 400), eitherServer());
      });
    }
    for (let lane = 0; lane < NIP_LANES; lane += 1) {
      const server = servers[lane % servers.length] as string;
      lanes.push((key) => bank.nip(key, pick(spread), randomNipKobo(20, 150), [server]));
    }
    for (let lane = 0; lane < TWIN_LANES; lane += 1) {
      lanes.push((key) => {
        const from = pick(everyone);
        const beneficiary = pick(everyone.filter((account) => account !== from));
        return bank.intra(key, from, beneficiary, randomKobo(20, 300), servers);
      });
    }

    const load = startLoad('two', client.headers, lanes);
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    load.halt();
    await load.finished;

    const outcome = tally(load.sent);
    const [stats] = await fixture.db.query<{ deadlocks: bigint }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    t.diagnostic(
      `${load.sent.length} requests: ${JSON.stringify({ ...outcome, unexpected: undefined })}; ` +
        `PostgreSQL deadlocks: ${stats?.deadlocks}`,
    );
    // Neither a 5xx (a deadlock or serialization failure that escaped its retry) nor silence.
    assert.deepEqual(outcome.unexpected, [], 'every answer was a transfer or INSUFFICIENT_FUNDS');
    assert.equal(outcome.noAnswer, 0, 'every request was answered');
    assert.ok(outcome.refused > 0, 'some transfers overdrew and were refused');
    assert.ok(outcome.okNip > 0, 'some NIP transfers were answered');
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const crossed = load.sent.filter(
        (transfer) =>
          transfer.body.debitAccountNumber === from.accountNumber &&
          transfer.body.beneficiaryAccountNumber === to.accountNumber &&
          transfer.answer?.status === 200,
      );
      assert.ok(crossed.length > 0, `transfers ${from.accountNumber}→${to.accountNumber} went`);
    }
    // A key sent to both servers at once is one transfer, whichever server answered it.
    const twinIds = new Map<string, Set<string>>();
    for (const transfer of load.sent) {
      const answered = answeredTransfer(transfer.answer);
      if (answered !== undefined) {
        twinIds.set(transfer.key, (twinIds.get(transfer.key) ?? new Set()).add(answered._id));
      }
    }
    assert.deepEqual(
      [...twinIds].filter(([, ids]) => ids.size > 1),
      [],
    );

    assert.deepEqual(await answeredButNotStored(fixture.db, load.sent), []);
    assert.deepEqual(await keysUsedTwice(fixture.db, client.clientId), []);
    // Both servers' status-query workers settle the NIP transfers that timed out.
    assert.ok(
      await settled(fixture.db, client.clientId, SETTLE_TIMEOUT_MS),
      `NIP transfers still Processing\n${one.server.log()}\n${two.server.log()}`,
    );
    assert.deepEqual(await halfAppliedTransfers(fixture.db, client.clientId), []);
    assert.deepEqual(await moneyProblems(fixture, bank), []);
    const [held] = await fixture.db.query<{ held: bigint }>(
      'SELECT coalesce(sum(held_kobo), 0)::bigint AS held FROM ledger_accounts WHERE id = ANY ($1)',
      [bank.accountIds],
    );
    assert.equal(held?.held, 0n, 'no funds left held');
    await Promise.all([one.server.terminate(), two.server.terminate()]);
  });
});
