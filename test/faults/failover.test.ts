// Fault test, not part of `npm test` (run it with `npm run test:faults`): OpenIBS as a real
// process on a PostgreSQL primary with a synchronous standby, both of the test's own (Debian's
// binaries, loopback ports, a temporary directory), reached through a two-host DATABASE_URL.
// Each round kills the primary (SIGKILL, no shutdown) under transfer load, promotes the standby,
// keeps the load going until OpenIBS answers from the new primary (no restart), checks that every
// transfer answered 200 is there once and the money adds up, and rebuilds the lost node as the
// new standby, so the next round fails over the other way.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/db.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { NO_RATE_LIMITS } from '../harness.ts';
import {
  ServerFixture,
  type SignedInClient,
  signUpClient,
  sleep,
} from '../pg-only/server-fixture.ts';
import {
  type Account,
  type Answer,
  answeredButNotStored,
  answeredTransfer,
  halfAppliedTransfers,
  isInsufficientFunds,
  keysUsedTwice,
  type LaneRequest,
  LoadBank,
  moneyProblems,
  pick,
  postTransfer,
  randomKobo,
  randomNipKobo,
  type SentTransfer,
  settled,
} from '../pg-only/transfer-load.ts';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { findPostgresBinaries, PgCluster, type PgNode } from './pg-cluster.ts';

const FAILOVERS = Number(process.env.FAILOVER_ROUNDS ?? 5);
const SECRETS = {
  adminToken: 'failover-admin-token-0123456789abcdefghijkl',
  tokenSigningSecret: 'failover-signing-secret-0123456789abcdefghijkl',
  publicBaseUrl: 'http://failover.openibs.invalid',
};
const HOT_LANES = 3;
const SPREAD_LANES = 8;
const NIP_LANES = 2;
const HOT_FUNDING_NAIRA = 1_500;
const SPREAD_ACCOUNTS = 5;
const SPREAD_FUNDING_NAIRA = 50_000;
/** The load runs at least this long, and until enough has been answered, before each kill. */
const LOAD_BEFORE_KILL_MS = 2_000;
const MIN_ANSWERED_BEFORE_KILL = 40;
/** Between the kill and the promotion, as a failover manager takes to notice. */
const DETECTION_MS = 1_000;
/** After the first 200 from the new primary, the load goes on until this many more. */
const ANSWERED_AFTER_RECOVERY = 40;
const RECOVERY_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;
const SYNC_TIMEOUT_MS = 30_000;
/** A client told 503 (or given no answer) waits this long before its next request. */
const BACKOFF_MS = 100;
const RESEND_CONCURRENCY = 6;

/** The shared load and money checks (test/pg-only), on the current primary's database. */
class PrimaryFixture extends ServerFixture {
  current: Db | undefined;

  override get db(): Db {
    assert.ok(this.current !== undefined, 'connected to the current primary');
    return this.current;
  }
}

/** One request of the load, timed. */
interface TimedTransfer extends SentTransfer {
  readonly startedAt: number;
  answeredAt?: number;
}

interface RoundReport {
  readonly round: number;
  readonly from: string;
  readonly to: string;
  readonly answered200: number;
  /** Of those, answered before the kill: on the old primary, so on the standby too. */
  readonly answered200BeforeKill: number;
  readonly answered503: number;
  readonly refused402: number;
  readonly noAnswer: number;
  /** From the promotion to the first 200 for a transfer sent after it. */
  readonly recoveryMs: number;
  /** From the kill to that same 200. */
  readonly outageMs: number;
  readonly resent: number;
  readonly lost: number;
  readonly duplicates: number;
}

const bin = findPostgresBinaries();

describe('PostgreSQL failover under transfer load: no acknowledged transfer lost', {
  timeout: 300_000,
  skip: bin === undefined ? 'no PostgreSQL binaries (set PG_BIN_DIR)' : false,
}, () => {
  let cluster: PgCluster | undefined;
  let server: ServerProcess | undefined;
  let baseUrl: string;
  let primary: PgNode;
  let standby: PgNode;
  const fixture = new PrimaryFixture('failover', SECRETS);
  let halt: (() => void) | undefined;
  // Should the process end before `after` runs (an interrupt), the servers still go.
  const onExit = () => cluster?.closeSync();
  const onSignal = (signal: NodeJS.Signals) => {
    onExit();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };

  before(
    async () => {
      cluster = await PgCluster.create(bin as string);
      process.once('exit', onExit);
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const a = await cluster.node('node-a');
      const b = await cluster.node('node-b');
      await a.initPrimary();
      await b.cloneFrom(a);
      await a.synchronousStandby(true);
      await waitForSyncStandby(a);
      primary = a;
      standby = b;
      const started = await startServerProcess({
        DATABASE_URL: `postgres://postgres@${a.address},${b.address}/openibs?target_session_attrs=read-write`,
        DATABASE_POOL_SIZE: '8',
        IBS_ENV: 'sandbox',
        DATA_DIR: path.join(cluster.root, 'openibs-data'),
        ADMIN_TOKEN: SECRETS.adminToken,
        TOKEN_SIGNING_SECRET: SECRETS.tokenSigningSecret,
        PUBLIC_BASE_URL: SECRETS.publicBaseUrl,
        WEBHOOK_WORKER_ENABLED: 'false',
        SANDBOX_DEMO_BALANCE_NAIRA: '0',
        // Funding credits are large: no stamp duty on them, so the money checks add up simply.
        STAMP_DUTY_KOBO: '0',
        ...NO_RATE_LIMITS,
        NIP_SIMULATOR_LATENCY_MS: '250',
        // Status queries soon and often; a transfer the network never got fails at once.
        STATUS_QUERY_SCHEDULE_SECONDS: '2,1',
        STATUS_QUERY_POLL_INTERVAL_MS: '200',
        STATUS_QUERY_CLAIM_SECONDS: '5',
        STATUS_QUERY_NOT_FOUND_GRACE_SECONDS: '0',
      });
      server = started.server;
      baseUrl = started.baseUrl;
    },
    { timeout: 120_000 },
  );

  after(
    async () => {
      halt?.();
      await server?.kill();
      await fixture.current?.close();
      await cluster?.close();
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
    { timeout: 60_000 },
  );

  /** Waits until the primary has a streaming standby confirming every commit. */
  async function waitForSyncStandby(node: PgNode): Promise<void> {
    const deadline = Date.now() + SYNC_TIMEOUT_MS;
    for (;;) {
      const replicas = await node.replicas();
      if (replicas.some((r) => r.state === 'streaming' && r.sync_state === 'sync')) {
        return;
      }
      assert.ok(
        Date.now() < deadline,
        `no synchronous standby: ${JSON.stringify(replicas)}\n${node.log()}`,
      );
      await sleep(100);
    }
  }

  /** Concurrent lanes of transfers, each a new Idempotency-Key and paymentReference. */
  function startLoad(
    label: string,
    headers: Record<string, string>,
    lanes: readonly ((key: string) => LaneRequest)[],
  ) {
    const sent: TimedTransfer[] = [];
    let running = true;
    let nipInFlight = 0;
    const finished = Promise.all(
      lanes.map(async (next, lane) => {
        for (let seq = 0; running; seq += 1) {
          const key = `${label}-${lane}-${seq}`;
          const request = next(key);
          const body = { ...request.body, paymentReference: key };
          const transfer: TimedTransfer = {
            key,
            baseUrl,
            body,
            amountKobo: request.amountKobo,
            nip: request.nip,
            startedAt: Date.now(),
          };
          sent.push(transfer);
          nipInFlight += request.nip ? 1 : 0;
          transfer.answer = await postTransfer(baseUrl, headers, key, body);
          transfer.answeredAt = Date.now();
          nipInFlight -= request.nip ? 1 : 0;
          if (transfer.answer.status === 503 || transfer.answer.status === 'no answer') {
            await sleep(BACKOFF_MS);
          }
        }
      }),
    );
    const stop = async () => {
      running = false;
      await finished;
    };
    halt = () => {
      running = false;
    };
    return {
      sent,
      stop,
      nipInFlight: () => nipInFlight,
      ok: () => sent.filter((transfer) => transfer.answer?.status === 200),
    };
  }

  /** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
  async function until(condition: () => boolean, timeoutMs: number, what: () => string) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      assert.ok(Date.now() < deadline, what());
      await sleep(10);
    }
  }

  test('forced failovers: every 200 is on the new primary, once; OpenIBS never restarts', {
    timeout: 270_000,
  }, async (t) => {
    assert.ok(server !== undefined);
    const client = await signUpClient(baseUrl, SECRETS, 'Failover Ltd');
    const bank = await LoadBank.open(fixture, baseUrl, client, [
      HOT_FUNDING_NAIRA,
      ...Array<number>(SPREAD_ACCOUNTS).fill(SPREAD_FUNDING_NAIRA),
    ]);
    const [hot, ...spread] = bank.accounts as [Account, ...Account[]];
    const to = [baseUrl];
    const otherThan = (account: Account) => pick(spread.filter((other) => other !== account));
    const lanes = [
      ...Array.from(
        { length: HOT_LANES },
        () => (key: string) => bank.intra(key, hot, pick(spread), randomKobo(50, 250), to),
      ),
      ...Array.from({ length: SPREAD_LANES }, () => (key: string) => {
        const from = pick(spread);
        const beneficiary = Math.random() < 0.15 ? hot : otherThan(from);
        return bank.intra(key, from, beneficiary, randomKobo(20, 400), to);
      }),
      ...Array.from(
        { length: NIP_LANES },
        () => (key: string) => bank.nip(key, pick(spread), randomNipKobo(20, 150), to),
      ),
    ];
    const serverPid = server.child.pid;
    const everySent: TimedTransfer[] = [];
    const reports: RoundReport[] = [];
    const startedAt = Date.now();

    for (let round = 1; round <= FAILOVERS; round += 1) {
      await waitForSyncStandby(primary);
      const load = startLoad(`f${round}`, client.headers, lanes);
      const loadStart = Date.now();
      await until(
        () =>
          Date.now() - loadStart >= LOAD_BEFORE_KILL_MS &&
          load.ok().length >= MIN_ANSWERED_BEFORE_KILL &&
          load.nipInFlight() > 0,
        20_000,
        () => `round ${round}: the load never got going\n${server?.log()}`,
      );

      // The primary dies mid-flight; a failover manager notices, then promotes the standby
      // (taking it off synchronous replication: it has no standby of its own yet).
      const killedAt = Date.now();
      primary.kill();
      await sleep(DETECTION_MS);
      await standby.synchronousStandby(false);
      await standby.promote();
      const promotedAt = Date.now();
      const [lost, promoted] = [primary, standby];
      [primary, standby] = [promoted, lost];

      const firstAfter = () =>
        load.sent.find((s) => s.startedAt >= promotedAt && s.answer?.status === 200);
      await until(
        () => firstAfter() !== undefined,
        RECOVERY_TIMEOUT_MS,
        () => `round ${round}: no 200 from the new primary\n${server?.log()}\n${primary.log()}`,
      );
      const recoveredAt = firstAfter()?.answeredAt ?? Date.now();
      const okAtRecovery = load.ok().length;
      await until(
        () => load.ok().length >= okAtRecovery + ANSWERED_AFTER_RECOVERY,
        RECOVERY_TIMEOUT_MS,
        () => `round ${round}: the load stalled on the new primary\n${server?.log()}`,
      );
      await load.stop();
      assert.ok(server.running, `OpenIBS exited\n${server.log()}`);
      assert.equal(server.child.pid, serverPid, 'the same OpenIBS process throughout');
      everySent.push(...load.sent);

      const unexpected = load.sent.filter((s) => !expectedDuringFailover(s.answer));
      assert.deepEqual(
        unexpected.map((s) => `${s.key} → ${s.answer?.status}: ${s.answer?.body}`),
        [],
        `only 200, 402 INSUFFICIENT_FUNDS, 503 DATABASE_UNAVAILABLE or no answer\n${server.log()}`,
      );

      // The checks run on the new primary alone.
      await fixture.current?.close();
      fixture.current = createPgDb({ connectionString: primary.url(), poolSize: 3 });
      const db = fixture.current;
      assert.ok(
        await settled(db, client.clientId, SETTLE_TIMEOUT_MS),
        `NIP transfers still Processing\n${server.log()}`,
      );
      const lostNow = await lostTransfers(db, everySent);
      assert.deepEqual(lostNow, [], `round ${round}: answered 200, not on the new primary`);

      // Every request of the round goes again as a client would (same key, same body): one
      // answered 200 replays the same transfer, one that was not is placed now (or refused).
      const resent = await resend(load.sent, client);
      everySent.push(...resent.map(({ again }) => again));
      const resendProblems = resent.flatMap(({ original, again }) => {
        const first = answeredTransfer(original.answer);
        const second = answeredTransfer(again.answer);
        if (first !== undefined && second?._id !== first._id) {
          return [
            `${original.key}: answered ${first._id}, resend ${again.answer?.status} ${again.answer?.body}`,
          ];
        }
        if (first === undefined && second === undefined && !isInsufficientFunds(again.answer)) {
          return [`${original.key}: resend answered ${again.answer?.status} ${again.answer?.body}`];
        }
        return [];
      });
      assert.deepEqual(resendProblems, []);
      assert.ok(
        await settled(db, client.clientId, SETTLE_TIMEOUT_MS),
        `resent NIP transfers still Processing\n${server.log()}`,
      );
      const duplicates = [
        ...(await keysUsedTwice(db, client.clientId)),
        ...(await paymentReferencesUsedTwice(db, client.clientId)),
      ];
      assert.deepEqual(duplicates, [], 'nothing applied twice');
      assert.deepEqual(await answeredButNotStored(db, everySent), []);
      assert.deepEqual(await halfAppliedTransfers(db, client.clientId), []);
      assert.deepEqual(await moneyProblems(fixture, bank), []);

      const answers = countAnswers(load.sent);
      const report: RoundReport = {
        round,
        from: lost.name,
        to: promoted.name,
        ...answers,
        answered200BeforeKill: load
          .ok()
          .filter((s) => (s.answeredAt ?? Number.POSITIVE_INFINITY) < killedAt).length,
        recoveryMs: recoveredAt - promotedAt,
        outageMs: recoveredAt - killedAt,
        resent: resent.length,
        lost: lostNow.length,
        duplicates: duplicates.length,
      };
      reports.push(report);
      t.diagnostic(`failover ${JSON.stringify(report)}`);

      // The lost node comes back as the new primary's synchronous standby.
      await standby.cloneFrom(primary);
      await primary.synchronousStandby(true);
      await waitForSyncStandby(primary);
    }

    const acknowledged = new Set(
      everySent.flatMap((s) => (answeredTransfer(s.answer) === undefined ? [] : [s.key])),
    );
    const summary = {
      failovers: reports.length,
      acknowledgedTransfers: acknowledged.size,
      acknowledgedBeforeAKill: reports.reduce((sum, r) => sum + r.answered200BeforeKill, 0),
      lost: reports.reduce((sum, r) => sum + r.lost, 0),
      duplicates: reports.reduce((sum, r) => sum + r.duplicates, 0),
      recoveryMs: reports.map((r) => r.recoveryMs),
      outageMs: reports.map((r) => r.outageMs),
      seconds: Math.round((Date.now() - startedAt) / 1000),
    };
    t.diagnostic(`summary ${JSON.stringify(summary)}`);
    assert.ok(summary.failovers >= 5 || FAILOVERS < 5, 'at least five failovers');
    assert.equal(summary.lost, 0);
    assert.equal(summary.duplicates, 0);
    assert.equal(server.child.pid, serverPid);
  });

  /** Sends each transfer again, a few at a time, with its key and body. */
  async function resend(sent: readonly TimedTransfer[], client: SignedInClient) {
    const queue = [...sent];
    const resent: { original: TimedTransfer; again: TimedTransfer }[] = [];
    await Promise.all(
      Array.from({ length: RESEND_CONCURRENCY }, async () => {
        for (let original = queue.shift(); original !== undefined; original = queue.shift()) {
          const again: TimedTransfer = { ...original, startedAt: Date.now() };
          again.answer = await postTransfer(baseUrl, client.headers, original.key, original.body);
          again.answeredAt = Date.now();
          resent.push({ original, again });
        }
      }),
    );
    return resent;
  }
});

/** What a transfer may be answered while the database fails over. */
function expectedDuringFailover(answer: Answer | undefined): boolean {
  if (answer === undefined) {
    return false;
  }
  if (answer.status === 200 || answer.status === 'no answer' || isInsufficientFunds(answer)) {
    return true;
  }
  return answer.status === 503 && errorCode(answer) === 'DATABASE_UNAVAILABLE';
}

function errorCode(answer: Answer): string | undefined {
  try {
    return (JSON.parse(answer.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

function countAnswers(sent: readonly TimedTransfer[]) {
  const counts = { answered200: 0, answered503: 0, refused402: 0, noAnswer: 0 };
  for (const { answer } of sent) {
    if (answer?.status === 200) {
      counts.answered200 += 1;
    } else if (answer?.status === 503) {
      counts.answered503 += 1;
    } else if (answer?.status === 402) {
      counts.refused402 += 1;
    } else if (answer?.status === 'no answer') {
      counts.noAnswer += 1;
    }
  }
  return counts;
}

/** Transfers answered 200 (by id) that the database does not hold. */
async function lostTransfers(db: Db, sent: readonly TimedTransfer[]): Promise<string[]> {
  const answered = new Map<string, string>();
  for (const transfer of sent) {
    const ok = answeredTransfer(transfer.answer);
    if (ok !== undefined) {
      answered.set(ok._id, transfer.key);
    }
  }
  const rows = await db.query<{ id: string }>('SELECT id FROM transfers WHERE id = ANY ($1)', [
    [...answered.keys()],
  ]);
  const stored = new Set(rows.map((row) => row.id));
  return [...answered].filter(([id]) => !stored.has(id)).map(([id, key]) => `${key}: ${id}`);
}

/** Payment references that more than one of the client's outgoing transfers carries. */
async function paymentReferencesUsedTwice(db: Db, clientId: string): Promise<string[]> {
  const rows = await db.query<{ payment_reference: string; count: bigint }>(
    `SELECT payment_reference, count(*) FROM transfers WHERE client_id = $1 AND type = 'Outwards'
      GROUP BY payment_reference HAVING count(*) > 1`,
    [clientId],
  );
  return rows.map((row) => `${row.payment_reference}: ${row.count} transfers`);
}
