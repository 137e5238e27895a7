// Fault test, not part of `npm test` (run it with `npm run test:faults`; docs/faults.md): the
// database's disk fills up. A PostgreSQL server of the test's own keeps its whole data directory
// (tables and WAL) on a small tmpfs; OpenIBS runs on it as a real process under a load of
// transfers, account openings, sandbox credits and reads. The test fills the tmpfs with a file of
// zeros (topped up all along, so PostgreSQL gets no room back), twice:
//   A. "tables full": the WAL's current segment still has room (a fresh one is started before
//      the fill), so only files that must grow fail: 53100 disk_full, PostgreSQL stays up;
//   B. "WAL full": the WAL is moved to a segment boundary, so the next WAL write needs a new
//      segment file: PostgreSQL PANICs (its documented behaviour); its crash recovery then fails
//      too while the disk is full, and it shuts down (should it come back by itself, that path
//      is handled as well; the report says which happened).
// Each time, every answer must be 503 DATABASE_UNAVAILABLE with Retry-After or a normal answer
// (never a 500, never a hang), /health stays 200 and the process stays up; then the file goes, the
// test restarts PostgreSQL if it stopped, and OpenIBS must recover by itself. At the end every
// transfer is sent again with its key, and the books are checked: every 2xx stored once, nothing
// half-applied, the ledger invariants, balances, conservation of money, and pg_amcheck.
// Needs root (mount) and Debian's PostgreSQL binaries; skipped, saying why, without them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
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
  LoadBank,
  moneyProblems,
  pick,
  randomKobo,
  randomNipKobo,
  type SentTransfer,
  settled,
} from '../pg-only/transfer-load.ts';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { findPostgresBinaries, PgCluster, type PgNode } from './pg-cluster.ts';

const SECRETS = {
  adminToken: 'disk-full-admin-token-0123456789abcdefghijklm',
  tokenSigningSecret: 'disk-full-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://disk-full.openibs.invalid',
};
/** initdb, the OpenIBS database and its migrations take about 45 MB; a WAL segment is 16 MB. */
const DISK_MB = 128;
const ACCOUNTS = 4;
const FUNDING_NAIRA = 20_000;
const INTRA_LANES = 3;
/** Before each fill, the load runs until this many transfers were answered 200. */
const OK_BEFORE_FILL = 10;
/** The disk stays full at least this long, and until enough writes were refused. */
const FULL_MS = 4_000;
const REFUSED_WHILE_FULL = 5;
const FULL_TIMEOUT_MS = 20_000;
/** After the first transfer answered 200 once the disk has room again, this many more. */
const OK_AFTER_RECOVERY = 10;
const RECOVERY_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const SETTLE_TIMEOUT_MS = 30_000;
/** A client told 503 waits this long before its next request; the slower lanes pause anyway. */
const BACKOFF_MS = 100;
const SLOW_LANE_PAUSE_MS = 100;
const RESEND_CONCURRENCY = 4;
/** How often the filler takes back whatever PostgreSQL freed (a temp file, a removed init file). */
const TOP_UP_INTERVAL_MS = 50;

type Kind = 'transfer' | 'account' | 'credit' | 'read' | 'health';

/** An answer with its Retry-After header. */
interface Reply extends Answer {
  readonly retryAfter?: string | null;
}

/** One request of the load, timed. */
interface Call {
  readonly kind: Kind;
  readonly key: string;
  readonly startedAt: number;
  answeredAt?: number;
  answer?: Reply;
}

interface TransferCall extends Call, SentTransfer {
  answer?: Reply;
}

interface PhaseReport {
  readonly phase: string;
  readonly path: string;
  readonly walSegmentAtFill: string;
  readonly fillerMb: number;
  readonly postgresLog: Record<string, number>;
  readonly postgresMessages: string[];
  /** OpenIBS's own log lines of level warn and up, by level, message and error code. */
  readonly openibsLog: Record<string, number>;
  /** By window (before the fill, while full, after the file went) and kind: status → count. */
  readonly answers: Record<string, Record<string, Record<string, number>>>;
  /** The longest any request overlapping the full disk waited for its answer. */
  readonly slowestAnswerWhileFullMs: number;
  readonly fullMs: number;
  /** How long no postmaster ran, and whether none did when the file went. */
  readonly postgresDownMs: number;
  readonly postgresDownWhenFreed: boolean;
  /** From the file's removal to the first 200 of a transfer sent after it. */
  readonly recoveryMs: number;
  /** From the test's restart of PostgreSQL (when it had stopped) to that 200. */
  readonly recoveryAfterRestartMs: number | undefined;
}

/** The shared money checks (test/pg-only) on the test's own server. */
class OwnServerFixture extends ServerFixture {
  current: Db | undefined;

  override get db(): Db {
    assert.ok(this.current !== undefined, 'connected');
    return this.current;
  }
}

const bin = findPostgresBinaries();
const skip = skipReason();

function skipReason(): string | false {
  if (bin === undefined) {
    return 'no PostgreSQL binaries (set PG_BIN_DIR)';
  }
  if (process.getuid?.() !== 0) {
    return 'needs root, to mount a tmpfs for the database';
  }
  const probe = mkdtempSync(path.join(tmpdir(), 'openibs-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], {
      encoding: 'utf8',
    });
    if (mounted.status !== 0) {
      return `cannot mount a tmpfs here: ${(mounted.stderr || String(mounted.error)).trim()}`;
    }
    spawnSync('umount', [probe]);
    return false;
  } finally {
    rmdirSync(probe);
  }
}

describe('the database disk fills up: 503s, no corruption, recovery without a restart', {
  timeout: 150_000,
  skip,
}, () => {
  let cluster: PgCluster | undefined;
  let node: PgNode;
  let disk: string | undefined;
  let filler: Filler | undefined;
  let server: ServerProcess | undefined;
  let baseUrl: string;
  const fixture = new OwnServerFixture('disk-full', SECRETS);
  let halt: (() => void) | undefined;
  // Should the process end before `after` runs (an interrupt), everything still goes.
  const onExit = () => {
    halt?.();
    filler?.stop();
    if (server?.running) {
      server.child.kill('SIGKILL');
    }
    for (const each of cluster?.nodes ?? []) {
      try {
        each.kill();
      } catch {
        // best effort on the way out
      }
    }
    if (disk !== undefined) {
      unmount(disk);
      disk = undefined;
    }
    cluster?.closeSync();
  };
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
      const mountPoint = path.join(cluster.root, 'disk');
      mkdirSync(mountPoint);
      const owner = ['-u', '-g'].map((flag) =>
        spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim(),
      );
      const mounted = spawnSync(
        'mount',
        [
          '-t',
          'tmpfs',
          '-o',
          `size=${DISK_MB}m,mode=0700,uid=${owner[0]},gid=${owner[1]}`,
          'tmpfs',
          mountPoint,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(mounted.status, 0, `mount: ${mounted.stderr}`);
      disk = mountPoint;
      node = await cluster.node('db', { dataDir: path.join(mountPoint, 'data') });
      // Each log line carries its SQLSTATE. wal_keep_size (shared) keeps every WAL segment, so
      // none is recycled as a future one: the next segment always needs new space.
      await node.initPrimary(["log_line_prefix = '%m [%p] %e '"]);
      filler = new Filler(path.join(mountPoint, 'filler'));
      const started = await startServerProcess({
        DATABASE_URL: node.url(),
        DATABASE_POOL_SIZE: '6',
        IBS_ENV: 'sandbox',
        DATA_DIR: path.join(cluster.root, 'openibs-data'),
        ADMIN_TOKEN: SECRETS.adminToken,
        TOKEN_SIGNING_SECRET: SECRETS.tokenSigningSecret,
        PUBLIC_BASE_URL: SECRETS.publicBaseUrl,
        WEBHOOK_WORKER_ENABLED: 'false',
        SANDBOX_DEMO_BALANCE_NAIRA: '0',
        // No stamp duty on the funding credits, so the money checks add up simply.
        STAMP_DUTY_KOBO: '0',
        ...NO_RATE_LIMITS,
        NIP_SIMULATOR_LATENCY_MS: '100',
        STATUS_QUERY_SCHEDULE_SECONDS: '2,1',
        STATUS_QUERY_POLL_INTERVAL_MS: '200',
        STATUS_QUERY_CLAIM_SECONDS: '5',
        STATUS_QUERY_NOT_FOUND_GRACE_SECONDS: '0',
      });
      server = started.server;
      baseUrl = started.baseUrl;
    },
    { timeout: 60_000 },
  );

  after(
    async () => {
      halt?.();
      filler?.stop();
      await server?.kill();
      await fixture.current?.close();
      for (const each of cluster?.nodes ?? []) {
        each.kill();
      }
      if (disk !== undefined) {
        unmount(disk);
        disk = undefined;
      }
      await cluster?.close();
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
    { timeout: 30_000 },
  );

  /** An HTTP request to OpenIBS; whatever happens is the answer. */
  async function send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Reply> {
    try {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      return {
        status: response.status,
        body: await response.text(),
        retryAfter: response.headers.get('retry-after'),
      };
    } catch (error) {
      return { status: 'no answer', body: String(error) };
    }
  }

  /**
   * Concurrent lanes until stopped: intra-bank transfers, NIP transfers, account openings and
   * sandbox credits (writes), GET /accounts and /health (reads). Every request is kept.
   */
  function startLoad(label: string, client: SignedInClient, bank: LoadBank) {
    const calls: Call[] = [];
    let running = true;
    const to = [baseUrl];
    const accounts = bank.accounts as readonly Account[];
    const record = async (call: Call, request: Promise<Reply>) => {
      calls.push(call);
      call.answer = await request;
      call.answeredAt = Date.now();
      const refused = call.answer.status === 503 || call.answer.status === 'no answer';
      await sleep(refused ? BACKOFF_MS : call.kind === 'transfer' ? 0 : SLOW_LANE_PAUSE_MS);
    };
    const transfer = async (key: string, nip: boolean) => {
      const from = pick(accounts);
      const request = nip
        ? bank.nip(key, from, randomNipKobo(1, 40), to)
        : bank.intra(key, from, pick(accounts.filter((a) => a !== from)), randomKobo(1, 60), to);
      const body = { ...request.body, paymentReference: key };
      const call: TransferCall = {
        kind: 'transfer',
        key,
        baseUrl,
        body,
        amountKobo: request.amountKobo,
        nip,
        startedAt: Date.now(),
      };
      await record(
        call,
        send('POST', '/transfers', { ...client.headers, 'idempotency-key': key }, body),
      );
    };
    const lanes: ((key: string) => Promise<void>)[] = [
      ...Array.from({ length: INTRA_LANES }, () => (key: string) => transfer(key, false)),
      (key) => transfer(key, true),
      (key) =>
        record(
          { kind: 'account', key, startedAt: Date.now() },
          send('POST', '/accounts', client.headers, { suffix: key }),
        ),
      (key) =>
        record(
          { kind: 'credit', key, startedAt: Date.now() },
          send(
            'POST',
            '/admin/sandbox/credits',
            { authorization: `Bearer ${SECRETS.adminToken}` },
            {
              accountNumber: client.mainAccount.accountNumber,
              amount: Number(randomKobo(1, 50)) / 100,
              narration: key,
            },
          ),
        ),
      (key) =>
        record(
          { kind: 'read', key, startedAt: Date.now() },
          send('GET', '/accounts', client.headers),
        ),
      (key) => record({ kind: 'health', key, startedAt: Date.now() }, send('GET', '/health', {})),
    ];
    const finished = Promise.all(
      lanes.map(async (next, lane) => {
        for (let seq = 0; running; seq += 1) {
          await next(`${label}-${lane}-${seq}`);
        }
      }),
    );
    halt = () => {
      running = false;
    };
    return {
      calls,
      stop: async () => {
        running = false;
        await finished;
      },
      okTransfers: (since = 0) =>
        calls.filter(
          (c) => c.kind === 'transfer' && c.startedAt >= since && c.answer?.status === 200,
        ).length,
      refusedWrites: (since: number) =>
        calls.filter(
          (c) => isWrite(c.kind) && c.startedAt >= since && isDatabaseUnavailable(c.answer),
        ).length,
    };
  }

  /** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
  async function until(condition: () => boolean, timeoutMs: number, what: () => string) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      assert.ok(Date.now() < deadline, what());
      await sleep(20);
    }
  }

  /** The postmaster's pid while it runs (read from its pid file), else undefined. */
  function postmaster(): number | undefined {
    try {
      const pid = Number(
        readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  }

  function logSize(): number {
    return existsSync(node.logFile) ? statSync(node.logFile).size : 0;
  }

  /** The server log written since `offset`. */
  function logSince(offset: number): string {
    return existsSync(node.logFile)
      ? readFileSync(node.logFile).subarray(offset).toString('utf8')
      : '';
  }

  /**
   * One round: the load runs on a healthy disk, the disk fills (`fault` does the rest), writes
   * are refused for a while, the file goes (PostgreSQL restarted if it stopped), and the load runs
   * until OpenIBS places transfers again. The answers are checked; the report says what happened.
   */
  async function round(
    phase: string,
    client: SignedInClient,
    bank: LoadBank,
    steps: {
      /** Before the fill, on a superuser session. */
      readonly prepare?: (sql: pg.Client) => Promise<void>;
      /** Right after the fill, on the same session. */
      readonly fault?: (sql: pg.Client) => Promise<void>;
    },
  ): Promise<{ report: PhaseReport; calls: Call[] }> {
    assert.ok(server !== undefined && filler !== undefined);
    const logOffset = logSize();
    const serverLogOffset = server.fullOutput.length;
    const sql = new pg.Client({ connectionString: node.url(), connectionTimeoutMillis: 5_000 });
    sql.on('error', () => undefined);
    await sql.connect();
    const load = startLoad(phase, client, bank);
    let downSince: number | undefined;
    let downMs = 0;
    const watch = setInterval(() => {
      const up = postmaster() !== undefined;
      if (!up && downSince === undefined) {
        downSince = Date.now();
      } else if (up && downSince !== undefined) {
        downMs += Date.now() - downSince;
        downSince = undefined;
      }
    }, 50);
    try {
      await until(
        () => load.okTransfers() >= OK_BEFORE_FILL,
        20_000,
        () => `${phase}: the load never got going\n${server?.log()}`,
      );
      await steps.prepare?.(sql);
      const [wal] = (
        await sql.query<{ file: string; offset: number }>(
          `SELECT file_name AS file, file_offset::int AS offset
             FROM pg_walfile_name_offset(pg_current_wal_lsn())`,
        )
      ).rows;
      const filledAt = Date.now();
      const fillerBytes = filler.fill();
      filler.keepFull(TOP_UP_INTERVAL_MS);
      await steps.fault?.(sql);
      await until(
        () =>
          Date.now() - filledAt >= FULL_MS && load.refusedWrites(filledAt) >= REFUSED_WHILE_FULL,
        FULL_TIMEOUT_MS,
        () =>
          `${phase}: fewer than ${REFUSED_WHILE_FULL} writes refused while the disk was full\n` +
          `${server?.log()}\n${node.log()}`,
      );
      const wasDown = postmaster() === undefined;
      filler.stop();
      const freedAt = Date.now();
      // PostgreSQL that stopped (or stops now, its crash recovery having failed) is started
      // again, as an operator would once the disk has room.
      let restartedAt: number | undefined;
      const firstOk = () =>
        load.calls.find(
          (c) => c.kind === 'transfer' && c.startedAt >= freedAt && c.answer?.status === 200,
        );
      const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
      while (firstOk() === undefined) {
        assert.ok(
          Date.now() < deadline,
          `${phase}: no transfer placed within ${RECOVERY_TIMEOUT_MS} ms of freeing the disk\n` +
            `${server.log()}\n${node.log()}`,
        );
        if (postmaster() === undefined) {
          await sleep(200);
          if (postmaster() === undefined) {
            await node.start();
            restartedAt = Date.now();
          }
        }
        await sleep(20);
      }
      const recoveredAt = firstOk()?.answeredAt ?? Date.now();
      const okAtRecovery = load.okTransfers();
      await until(
        () => load.okTransfers() >= okAtRecovery + OK_AFTER_RECOVERY,
        RECOVERY_TIMEOUT_MS,
        () => `${phase}: the load stalled after recovery\n${server?.log()}`,
      );
      await load.stop();
      assert.ok(server.running, `OpenIBS exited\n${server.log()}`);

      const log = logSince(logOffset);
      const crashed = /PANIC: /.test(log);
      const outcome = !crashed
        ? 'stayed up'
        : restartedAt === undefined
          ? 'PANIC; restarted by itself'
          : 'PANIC; it shut down and the test restarted it once the disk had room';
      const report: PhaseReport = {
        phase,
        path: outcome,
        walSegmentAtFill: `${wal?.file} at ${((wal?.offset ?? 0) / 2 ** 20).toFixed(1)} MB`,
        fillerMb: Math.round(fillerBytes / 2 ** 20),
        postgresLog: postgresLogCounts(log),
        postgresMessages: postgresMessages(log),
        openibsLog: openibsLogCounts(server.fullOutput.slice(serverLogOffset)),
        answers: answersByWindow(load.calls, filledAt, freedAt),
        slowestAnswerWhileFullMs: Math.max(
          0,
          ...load.calls
            .filter(
              (c) =>
                (c.answeredAt ?? Number.POSITIVE_INFINITY) >= filledAt && c.startedAt < freedAt,
            )
            .map((c) => (c.answeredAt ?? Number.POSITIVE_INFINITY) - c.startedAt),
        ),
        fullMs: freedAt - filledAt,
        postgresDownMs: downMs + (downSince === undefined ? 0 : Date.now() - downSince),
        postgresDownWhenFreed: wasDown,
        recoveryMs: recoveredAt - freedAt,
        recoveryAfterRestartMs: restartedAt === undefined ? undefined : recoveredAt - restartedAt,
      };

      // Every answer is one the route may give with a full disk; /health always 200; reads
      // answered while PostgreSQL ran without crashing are 200.
      const unexpected = load.calls.flatMap((c) => {
        const problem = answerProblem(c, !crashed);
        return problem === undefined ? [] : [`${c.kind} ${c.key}: ${problem}`];
      });
      assert.deepEqual(unexpected, [], `${phase}: unexpected answers\n${server.log()}`);
      return { report, calls: load.calls };
    } finally {
      clearInterval(watch);
      filler.stop();
      halt?.();
      await sql.end().catch(() => undefined);
    }
  }

  test('tables full, then WAL full: 503s, recovery by itself, every 2xx stored once, books balanced', {
    timeout: 110_000,
  }, async (t) => {
    assert.ok(server !== undefined && cluster !== undefined);
    const startedAt = Date.now();
    const serverPid = server.child.pid;
    const client = await signUpClient(baseUrl, SECRETS, 'Disk Full Ltd');
    const bank = await LoadBank.open(
      fixture,
      baseUrl,
      client,
      Array<number>(ACCOUNTS).fill(FUNDING_NAIRA),
    );

    // A. A fresh WAL segment first: 16 MB of WAL room, so only growing files hit the full disk.
    const tables = await round('tables-full', client, bank, {
      prepare: async (sql) => {
        await sql.query('CHECKPOINT');
        await sql.query('SELECT pg_switch_wal()');
        // The checkpoint record is the new segment's first: its file is written now.
        await sql.query('CHECKPOINT');
      },
    });
    t.diagnostic(`round ${JSON.stringify(tables.report)}`);

    // B. The WAL at a segment boundary with the disk full: the next WAL write needs a new
    // segment file. A few switches, in case a segment was left over for reuse.
    const wal = await round('wal-full', client, bank, {
      fault: async (sql) => {
        for (let attempt = 0; attempt < 4 && postmaster() !== undefined; attempt += 1) {
          try {
            await sql.query(`SELECT pg_logical_emit_message(false, 'openibs-disk-full', 'x')`);
            await sql.query('SELECT pg_switch_wal()');
          } catch {
            break; // the server crashed under this session
          }
          await sleep(300);
        }
      },
    });
    t.diagnostic(`round ${JSON.stringify(wal.report)}`);

    assert.ok(server.running, `OpenIBS exited\n${server.log()}`);
    assert.equal(server.child.pid, serverPid, 'the same OpenIBS process throughout');

    // The checks, on a connection of the test's own.
    fixture.current = createPgDb({ connectionString: node.url(), poolSize: 3 });
    const db = fixture.current;
    const calls = [...tables.calls, ...wal.calls];
    const transfers = calls.filter((c): c is TransferCall => c.kind === 'transfer');
    assert.ok(
      await settled(db, client.clientId, SETTLE_TIMEOUT_MS),
      `NIP transfers still Processing\n${server.log()}`,
    );
    // Every transfer again, as a careful client would (same key, same body): one answered 200
    // replays the same transfer, one refused is placed now (or refused for want of funds).
    const resent = await resend(transfers, client);
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
    assert.deepEqual(resendProblems, [], 'resends');
    assert.ok(
      await settled(db, client.clientId, SETTLE_TIMEOUT_MS),
      `resent NIP transfers still Processing\n${server.log()}`,
    );
    const everyTransfer = [...transfers, ...resent.map(({ again }) => again)];
    const checks = {
      answeredButNotStored: await answeredButNotStored(db, everyTransfer),
      keysUsedTwice: await keysUsedTwice(db, client.clientId),
      paymentReferencesUsedTwice: await paymentReferencesUsedTwice(db, client.clientId),
      halfApplied: await halfAppliedTransfers(db, client.clientId),
      money: await moneyProblems(fixture, bank),
      credits: await creditProblems(db, client, calls),
      accounts: await accountProblems(db, calls),
      amcheck: await amcheck(),
    };
    const [stored] = await db.query<{ transfers: bigint; credits: bigint; accounts: bigint }>(
      `SELECT (SELECT count(*) FROM transfers WHERE client_id = $1 AND type = 'Outwards') AS transfers,
              (SELECT count(*) FROM transfers WHERE account_id = $2 AND type = 'Inwards') AS credits,
              (SELECT count(*) FROM accounts WHERE client_id = $1) AS accounts`,
      [client.clientId, client.mainAccount._id],
    );
    const summary = {
      rounds: [tables.report.path, wal.report.path],
      transfersSent: transfers.length,
      transfersResent: resent.length,
      stored: {
        outwardsTransfers: Number(stored?.transfers),
        credits: Number(stored?.credits),
        accounts: Number(stored?.accounts),
      },
      violations: Object.fromEntries(
        Object.entries(checks).map(([name, list]) => [name, list.length]),
      ),
      seconds: Math.round((Date.now() - startedAt) / 1000),
    };
    t.diagnostic(`summary ${JSON.stringify(summary)}`);
    assert.deepEqual(checks, {
      answeredButNotStored: [],
      keysUsedTwice: [],
      paymentReferencesUsedTwice: [],
      halfApplied: [],
      money: [],
      credits: [],
      accounts: [],
      amcheck: [],
    });
  });

  /** Sends each transfer again, a few at a time, with its key and body. */
  async function resend(sent: readonly TransferCall[], client: SignedInClient) {
    const queue = [...sent];
    const resent: { original: TransferCall; again: TransferCall }[] = [];
    await Promise.all(
      Array.from({ length: RESEND_CONCURRENCY }, async () => {
        for (let original = queue.shift(); original !== undefined; original = queue.shift()) {
          const again: TransferCall = { ...original, startedAt: Date.now() };
          again.answer = await send(
            'POST',
            '/transfers',
            { ...client.headers, 'idempotency-key': original.key },
            original.body,
          );
          again.answeredAt = Date.now();
          resent.push({ original, again });
        }
      }),
    );
    return resent;
  }

  /** pg_amcheck over every table and index of the OpenIBS database (heap and B-tree checks). */
  async function amcheck(): Promise<string[]> {
    assert.ok(cluster !== undefined);
    const result = await cluster.run('pg_amcheck', [
      '-h',
      '127.0.0.1',
      '-p',
      String(node.port),
      '-U',
      'postgres',
      '--install-missing',
      '--heapallindexed',
      'openibs',
    ]);
    return result.code === 0
      ? []
      : [`pg_amcheck exited ${result.code}: ${result.output.slice(0, 3000)}`];
  }
});

/**
 * A file of zeros on the tmpfs, grown until the file system is full, and again whenever
 * PostgreSQL frees something, until stopped; then deleted.
 */
class Filler {
  private fd: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private written = 0;
  private static readonly BIG = Buffer.alloc(1 << 20);
  private static readonly PAGE = Buffer.alloc(4096);

  constructor(readonly file: string) {}

  /** Writes zeros until ENOSPC; the bytes the file holds. */
  fill(): number {
    this.fd ??= openSync(this.file, 'a');
    for (const chunk of [Filler.BIG, Filler.PAGE]) {
      for (;;) {
        try {
          this.written += writeSync(this.fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
            break;
          }
          throw error;
        }
      }
    }
    return this.written;
  }

  keepFull(intervalMs: number): void {
    this.timer ??= setInterval(() => this.fill(), intervalMs);
  }

  /** No more topping up, and the file gone: the space is free again. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    rmSync(this.file, { force: true });
    this.written = 0;
  }
}

function unmount(dir: string): void {
  if (spawnSync('umount', [dir]).status !== 0) {
    // Something still holds a file there (it should not): detach it all the same.
    spawnSync('umount', ['-l', dir]);
  }
}

function isWrite(kind: Kind): boolean {
  return kind === 'transfer' || kind === 'account' || kind === 'credit';
}

function errorCode(answer: Answer | undefined): string | undefined {
  try {
    return (JSON.parse(answer?.body ?? '') as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** 503 DATABASE_UNAVAILABLE with a positive Retry-After. */
function isDatabaseUnavailable(answer: Reply | undefined): boolean {
  return (
    answer?.status === 503 &&
    errorCode(answer) === 'DATABASE_UNAVAILABLE' &&
    Number(answer.retryAfter) > 0
  );
}

/** What is wrong with an answer, if anything. `postgresUp`: reads must succeed. */
function answerProblem(call: Call, postgresUp: boolean): string | undefined {
  const answer = call.answer;
  if (answer === undefined || answer.status === 'no answer') {
    return `no answer within ${REQUEST_TIMEOUT_MS} ms: ${answer?.body}`;
  }
  const describe = () => `${answer.status} ${answer.body.slice(0, 300)}`;
  if (call.kind === 'health') {
    return answer.status === 200 ? undefined : describe();
  }
  if (isDatabaseUnavailable(answer)) {
    return call.kind === 'read' && postgresUp
      ? `a read refused while PostgreSQL ran: ${describe()}`
      : undefined;
  }
  const ok =
    (call.kind === 'transfer' && (answer.status === 200 || isInsufficientFunds(answer))) ||
    (call.kind === 'account' && answer.status === 200) ||
    (call.kind === 'credit' && answer.status === 201) ||
    (call.kind === 'read' && answer.status === 200);
  return ok ? undefined : describe();
}

function answersByWindow(calls: readonly Call[], filledAt: number, freedAt: number) {
  const windows: Record<string, Record<string, Record<string, number>>> = {};
  for (const call of calls) {
    // Answered before the fill; sent after the file went; else it overlapped the full disk.
    const window =
      (call.answeredAt ?? Number.POSITIVE_INFINITY) < filledAt
        ? 'beforeFill'
        : call.startedAt < freedAt
          ? 'whileFull'
          : 'afterFree';
    const answer = call.answer;
    const status =
      answer === undefined
        ? 'none'
        : answer.status === 'no answer'
          ? 'no answer'
          : `${answer.status}${answer.status >= 400 ? ` ${errorCode(answer)}` : ''}`;
    const byWindow = windows[window] ?? {};
    const byKind = byWindow[call.kind] ?? {};
    byKind[status] = (byKind[status] ?? 0) + 1;
    byWindow[call.kind] = byKind;
    windows[window] = byWindow;
  }
  return windows;
}

/** PostgreSQL's log lines by "SQLSTATE SEVERITY" (log_line_prefix ends in %e). */
function postgresLogCounts(log: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of log.matchAll(/^\S+ \S+ \S+ \[\d+\] ([0-9A-Z]{5}) ([A-Z]+): /gm)) {
    const key = `${match[1]} ${match[2]}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The distinct PostgreSQL messages of severity WARNING and up, file names and pids blurred. */
function postgresMessages(log: string): string[] {
  const messages = new Set<string>();
  for (const match of log.matchAll(
    /^\S+ \S+ \S+ \[\d+\] ([0-9A-Z]{5}) (WARNING|ERROR|FATAL|PANIC|LOG): +(.*)$/gm,
  )) {
    const [, code, severity, text] = match;
    if (
      severity === 'LOG' &&
      !/startup process|terminating any other|shutting down|all server processes|redo|ready to accept/.test(
        text ?? '',
      )
    ) {
      continue;
    }
    messages.add(
      `${code} ${severity}: ${(text ?? '').replace(/"[^"]*"/g, '"…"').replace(/PID \d+/g, 'PID n')}`,
    );
  }
  return [...messages].slice(0, 30);
}

/** pino's JSON lines of level 40 (warn) and up, counted by level, message and error code. */
function openibsLogCounts(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) {
      continue;
    }
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        code?: string;
        err?: { code?: string; message?: string };
      };
      if ((entry.level ?? 0) < 40) {
        continue;
      }
      const code = entry.err?.code ?? entry.code ?? entry.err?.message?.slice(0, 60);
      const key = `${entry.level} ${entry.msg}${code === undefined ? '' : ` (${code})`}`;
      counts[key] = (counts[key] ?? 0) + 1;
    } catch {
      // not a log line
    }
  }
  return counts;
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

/**
 * Sandbox credits to the client's main account: each one answered 201 is stored as answered,
 * none is stored twice (the narration is the request's key), each is Completed with one journal,
 * and the account's balance is exactly what they brought.
 */
async function creditProblems(
  db: Db,
  client: SignedInClient,
  calls: readonly Call[],
): Promise<string[]> {
  const rows = await db.query<{
    id: string;
    narration: string;
    status: string;
    net: bigint;
    journals: bigint;
  }>(
    `SELECT t.id, t.narration, t.status,
            t.amount_kobo - t.fee_kobo - t.vat_kobo - t.stamp_duty_kobo AS net,
            (SELECT count(*) FROM ledger_journals j WHERE j.transfer_id = t.id) AS journals
       FROM transfers t WHERE t.account_id = $1 AND t.type = 'Inwards'`,
    [client.mainAccount._id],
  );
  const problems: string[] = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const narrations = new Map<string, number>();
  for (const row of rows) {
    narrations.set(row.narration, (narrations.get(row.narration) ?? 0) + 1);
    if (row.status !== 'Completed' || row.journals !== 1n) {
      problems.push(`credit ${row.id} (${row.narration}): ${row.status}, ${row.journals} journals`);
    }
  }
  problems.push(
    ...[...narrations]
      .filter(([, n]) => n > 1)
      .map(([key, n]) => `credit ${key} stored ${n} times`),
  );
  for (const call of calls) {
    if (call.kind !== 'credit' || call.answer?.status !== 201) {
      continue;
    }
    const id = (JSON.parse(call.answer.body) as { data: { _id: string } }).data._id;
    if (byId.get(id)?.narration !== call.key) {
      problems.push(`credit ${call.key} answered 201 (${id}), not stored as such`);
    }
  }
  const [balance] = await db.query<{ balance_kobo: bigint }>(
    'SELECT balance_kobo FROM ledger_accounts WHERE id = $1',
    [client.mainAccount._id],
  );
  const total = rows
    .filter((row) => row.status === 'Completed')
    .reduce((sum, row) => sum + row.net, 0n);
  if (balance?.balance_kobo !== total) {
    problems.push(`main account balance ${balance?.balance_kobo}, its credits ${total}`);
  }
  return problems;
}

/** Every account opening answered 200 is an account, with the name it was asked for. */
async function accountProblems(db: Db, calls: readonly Call[]): Promise<string[]> {
  const opened = calls.flatMap((call) =>
    call.kind === 'account' && call.answer?.status === 200
      ? [
          {
            key: call.key,
            id: (JSON.parse(call.answer.body) as { data: { _id: string } }).data._id,
          },
        ]
      : [],
  );
  const rows = await db.query<{ id: string; account_name: string }>(
    'SELECT id, account_name FROM accounts WHERE id = ANY ($1)',
    [opened.map((o) => o.id)],
  );
  const names = new Map(rows.map((row) => [row.id, row.account_name]));
  return opened
    .filter(({ key, id }) => !(names.get(id) ?? '').endsWith(key))
    .map(({ key, id }) => `account ${key} answered 200 (${id}), stored as ${names.get(id)}`);
}
