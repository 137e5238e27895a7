// PostgreSQL only: the server runs as a real process, is SIGKILLed in the middle of a sustained
// concurrent transfer load, and is restarted on the same database, which this test reads
// directly. Whatever the kill interrupted must be all there or not there at all.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OUR_BANK, ServerFixture, signUpClient } from './server-fixture.ts';
import {
  type Account,
  answeredButNotStored,
  answeredTransfer,
  halfAppliedTransfers,
  isInsufficientFunds,
  keysUsedTwice,
  LoadBank,
  moneyProblems,
  outwardsByKey,
  pick,
  postTransfer,
  quiescent,
  randomKobo,
  randomNipKobo,
  type SentTransfer,
  settled,
  startLoad,
  tally,
} from './transfer-load.ts';

const SECRETS = {
  adminToken: 'load-crash-admin-token-0123456789abcdefghij',
  tokenSigningSecret: 'load-crash-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://transfer-load-crash.openibs.invalid',
};
const HOT_LANES = 8;
const SPREAD_LANES = 20;
const NIP_LANES = 4;
/** The hot account drains within a few transfers and then mostly overdraws: 402s. */
const HOT_FUNDING_NAIRA = 1_500;
const SPREAD_ACCOUNTS = 6;
const SPREAD_FUNDING_NAIRA = 2_000;
/** Each NIP transfer is at the (simulated) network this long: some are there at the kill. */
const RAIL_LATENCY_MS = '250';
/** The load runs at least this long, and until enough has happened, before the kill. */
const LOAD_BEFORE_KILL_MS = 2_500;
const MIN_ANSWERED_BEFORE_KILL = 100;
const KILL_DEADLINE_MS = 20_000;
const SETTLE_TIMEOUT_MS = 30_000;
const RESEND_CONCURRENCY = 8;
/** Status queries soon and often, and claims that a dead worker holds only briefly. */
const STATUS_QUERIES = {
  STATUS_QUERY_SCHEDULE_SECONDS: '2,1',
  STATUS_QUERY_POLL_INTERVAL_MS: '200',
  STATUS_QUERY_CLAIM_SECONDS: '5',
};

describe('SIGKILL during concurrent transfer load (PostgreSQL)', { timeout: 120_000 }, () => {
  const fixture = new ServerFixture('transfer-load-crash', SECRETS);
  before(() => fixture.open());
  after(() => fixture.close());

  test('what was answered is stored, nothing is half-applied, a resend never debits twice', async (t) => {
    // First life: a sustained load of intra-bank and NIP transfers, killed mid-flight.
    const first = await fixture.startServer({
      NIP_SIMULATOR_LATENCY_MS: RAIL_LATENCY_MS,
      ...STATUS_QUERIES,
    });
    const client = await signUpClient(first.baseUrl, SECRETS, 'Load Crash Ltd');
    const bank = await LoadBank.open(fixture, first.baseUrl, client, [
      HOT_FUNDING_NAIRA,
      ...Array<number>(SPREAD_ACCOUNTS).fill(SPREAD_FUNDING_NAIRA),
    ]);
    const [hot, ...spread] = bank.accounts as [Account, ...Account[]];
    const to = [first.baseUrl];
    const otherThan = (account: Account) => pick(spread.filter((other) => other !== account));
    const hotLane = (key: string) => bank.intra(key, hot, pick(spread), randomKobo(50, 250), to);
    const spreadLane = (key: string) => {
      const from = pick(spread);
      const beneficiary = Math.random() < 0.15 ? hot : otherThan(from);
      return bank.intra(key, from, beneficiary, randomKobo(20, 400), to);
    };
    const nipLane = (key: string) => bank.nip(key, pick(spread), randomNipKobo(20, 150), to);
    const load = startLoad('crash', client.headers, [
      ...Array.from({ length: HOT_LANES }, () => hotLane),
      ...Array.from({ length: SPREAD_LANES }, () => spreadLane),
      ...Array.from({ length: NIP_LANES }, () => nipLane),
    ]);
    const deadline = Date.now() + KILL_DEADLINE_MS;
    while (
      load.elapsedMs() < LOAD_BEFORE_KILL_MS ||
      load.answeredOk() < MIN_ANSWERED_BEFORE_KILL ||
      load.nipInFlight() === 0
    ) {
      if (Date.now() > deadline) {
        load.halt();
        await load.finished;
        assert.fail(`the load never got going: ${JSON.stringify(tally(load.sent))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    load.halt();
    const exit = await first.server.kill();
    await load.finished;
    assert.equal(exit.signal, 'SIGKILL');

    const outcome = tally(load.sent);
    t.diagnostic(`before the kill: ${JSON.stringify({ ...outcome, unexpected: undefined })}`);
    assert.deepEqual(outcome.unexpected, [], 'every answer was a transfer or INSUFFICIENT_FUNDS');
    assert.ok(outcome.noAnswer > 0, 'requests were in flight at the kill');
    assert.ok(outcome.refused > 0, 'some transfers overdrew and were refused');
    assert.ok(outcome.okNip > 0, 'some NIP transfers were answered');

    // The state the kill left, once the dead server's sessions have finished or rolled back.
    assert.ok(await quiescent(fixture.db, 10_000), 'the dead server left a session running');
    assert.deepEqual(await answeredButNotStored(fixture.db, load.sent), []);
    assert.deepEqual(await halfAppliedTransfers(fixture.db, client.clientId), []);
    assert.deepEqual(await moneyProblems(fixture, bank), []);
    assert.deepEqual(await keysUsedTwice(fixture.db, client.clientId), []);
    const nipAtKill = await fixture.db.query<{ status: string; count: bigint }>(
      `SELECT status, count(*) FROM transfers
        WHERE client_id = $1 AND type = 'Outwards' AND credit_bank_code <> $2
        GROUP BY status ORDER BY status`,
      [client.clientId, OUR_BANK],
    );
    t.diagnostic(
      `NIP transfers at the kill: ${nipAtKill.map((row) => `${row.count} ${row.status}`).join(', ')}`,
    );

    // Second life: the status-query worker settles what was left Processing. A transfer the
    // network never received is only "not found" there, which is final at once here.
    const second = await fixture.startServer({
      ...STATUS_QUERIES,
      STATUS_QUERY_SCHEDULE_SECONDS: '1',
      STATUS_QUERY_NOT_FOUND_GRACE_SECONDS: '0',
    });
    assert.ok(
      await settled(fixture.db, client.clientId, SETTLE_TIMEOUT_MS),
      `NIP transfers still Processing after the restart\n${second.server.log()}`,
    );
    assert.deepEqual(await answeredButNotStored(fixture.db, load.sent), []);
    assert.deepEqual(await halfAppliedTransfers(fixture.db, client.clientId), []);

    // Every request is sent again as a client would: same Idempotency-Key, same body. One that
    // was stored replays it; one that was not is placed now (or refused); none is placed twice.
    const storedBefore = await outwardsByKey(fixture.db, client.clientId);
    const unanswered = load.sent.filter((transfer) => transfer.answer?.status === 'no answer');
    const answered = load.sent.filter((transfer) => transfer.answer?.status === 200);
    const resent: { original: SentTransfer; again: SentTransfer }[] = [];
    const queue = [...unanswered, ...answered];
    await Promise.all(
      Array.from({ length: RESEND_CONCURRENCY }, async () => {
        for (let original = queue.shift(); original !== undefined; original = queue.shift()) {
          const again: SentTransfer = { ...original, baseUrl: second.baseUrl };
          again.answer = await postTransfer(
            second.baseUrl,
            client.headers,
            original.key,
            original.body,
          );
          resent.push({ original, again });
        }
      }),
    );
    const resendProblems: string[] = [];
    let replayed = 0;
    let placedNow = 0;
    for (const { original, again } of resent) {
      const stored = storedBefore.get(original.key);
      const transfer = answeredTransfer(again.answer);
      if (stored !== undefined) {
        replayed += 1;
        if (transfer?._id !== stored.id) {
          resendProblems.push(
            `${original.key}: stored ${stored.id}, resend answered ${again.answer?.status} ${again.answer?.body}`,
          );
        }
      } else if (transfer !== undefined) {
        placedNow += 1;
      } else if (original.answer?.status === 200 || !isInsufficientFunds(again.answer)) {
        resendProblems.push(
          `${original.key}: resend answered ${again.answer?.status} ${again.answer?.body}`,
        );
      }
    }
    t.diagnostic(
      `resent ${resent.length} (${unanswered.length} unanswered): ${replayed} replayed, ` +
        `${placedNow} placed now`,
    );
    assert.deepEqual(resendProblems, []);
    assert.deepEqual(
      await answeredButNotStored(fixture.db, [...load.sent, ...resent.map(({ again }) => again)]),
      [],
    );
    assert.deepEqual(await keysUsedTwice(fixture.db, client.clientId), []);

    // Settled again (resent NIP transfers may time out too), and the money all adds up.
    assert.ok(
      await settled(fixture.db, client.clientId, SETTLE_TIMEOUT_MS),
      `resent NIP transfers still Processing\n${second.server.log()}`,
    );
    assert.deepEqual(await halfAppliedTransfers(fixture.db, client.clientId), []);
    assert.deepEqual(await moneyProblems(fixture, bank), []);
    const [pending] = await fixture.db.query<{ count: bigint }>(
      `SELECT count(*) FROM ledger_holds WHERE status = 'pending' AND account_id = ANY ($1)`,
      [bank.accountIds],
    );
    assert.equal(pending?.count, 0n, 'no funds left held');
    await second.server.terminate();
  });
});
