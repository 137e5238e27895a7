import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sandboxCredit, signedInClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { outcomeFor, responseMessageFor } from '../../../rails/nip/nip-response-codes.ts';
import { createNipSimulator, type NipSimulator } from '../../../rails/nip/nip-simulator.ts';
import type {
  FundsTransferRequest,
  StatusQueryRequest,
  TransferOutcome,
} from '../../../rails/rail.ts';
import { createStatusQueryWorker } from './status-query-worker.ts';

/**
 * The status-query worker on its own: which transfers it claims and when, the backoff between
 * queries, the claim that hides a transfer from other rounds, and what it does with ambiguous
 * answers and a rail that throws. The rail is the NIP simulator behind a switch, so a test can
 * answer status queries (or sends) itself.
 */

const OTHER_BANK = '000013';
const BENEFICIARY = '0123456789';
/** Distinct from the defaults, so a worker that ignored the configuration would show. */
const SCHEDULE = [7, 11, 13] as const;
const CLAIM_SECONDS = 45;
const HOLD_KOBO = 11_172n; // ₦100.97 + ₦10 fee + ₦0.75 VAT

type Answer<Request> = (request: Request) => Promise<TransferOutcome>;

/**
 * The simulator, unless a test answers for it; records every status query it is asked. Every
 * other method (name enquiry, sandbox credits, introspection) is the simulator's own.
 */
function switchableRail(simulator: NipSimulator) {
  const state: {
    queries: string[];
    onQuery: Answer<StatusQueryRequest> | undefined;
    onSend: Answer<FundsTransferRequest> | undefined;
  } = { queries: [], onQuery: undefined, onSend: undefined };
  const rail: NipSimulator = {
    ...simulator,
    sendTransfer: (request) =>
      state.onSend === undefined ? simulator.sendTransfer(request) : state.onSend(request),
    queryStatus: (request) => {
      state.queries.push(request.sessionId);
      return state.onQuery === undefined ? simulator.queryStatus(request) : state.onQuery(request);
    },
  };
  return { rail, state };
}

/** Status queries wait at a gate the test opens, one answer per waiting query. */
function gate() {
  const waiting: ((outcome: TransferOutcome) => void)[] = [];
  const arrivals: (() => void)[] = [];
  return {
    answer: (): Promise<TransferOutcome> =>
      new Promise((resolve) => {
        waiting.push(resolve);
        arrivals.shift()?.();
      }),
    /** Resolves once `count` queries are waiting. */
    async arrived(count: number): Promise<void> {
      while (waiting.length < count) {
        await new Promise<void>((resolve) => arrivals.push(resolve));
      }
    },
    open(index: number, outcome: TransferOutcome) {
      const resolve = waiting[index];
      assert.ok(resolve, `query ${index} is waiting`);
      resolve(outcome);
    },
  };
}

describe('status query worker', () => {
  let testApp: TestApp;
  let simulator: NipSimulator;
  let control: ReturnType<typeof switchableRail>['state'];
  let headers: Record<string, string>;
  let accountId: string;
  let accountNumber: string;

  before(async () => {
    testApp = await buildTestApp(
      {
        STATUS_QUERY_SCHEDULE_SECONDS: SCHEDULE.join(','),
        ACCESS_TOKEN_TTL_SECONDS: '86400',
        // The return checks of Completed transfers (outbound/transfer-return.test.ts) are off:
        // the rounds here count the Processing transfers they claim.
        NIP_RETURN_CHECK_SECONDS: '0',
      },
      {
        rail: (config, clock) => {
          simulator = createNipSimulator({ institutionCode: config.institutionCode, clock });
          const { rail, state } = switchableRail(simulator);
          control = state;
          return rail;
        },
      },
    );
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    accountId = signedIn.client.mainAccountId;
    accountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, accountNumber, 5_000);
  });
  after(() => testApp?.close());

  afterEach(async () => {
    control.onQuery = undefined;
    control.onSend = undefined;
    control.queries.length = 0;
    // Every test settles what it placed, so the next one starts with nothing in flight.
    const [left] = await testApp.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM transfers WHERE status = 'Processing'`,
    );
    assert.equal(left?.n, 0n, 'no transfer is left Processing');
  });

  const worker = (options: { batchSize?: number } = {}) =>
    createStatusQueryWorker({
      db: testApp.db,
      clock: testApp.clock,
      outbound: testApp.services.outboundTransfers,
      batchSize: options.batchSize ?? 16,
      pollIntervalMs: 1_000,
      claimSeconds: CLAIM_SECONDS,
    });

  async function place(amount: number): Promise<{ id: string; sessionId: string }> {
    const enquiry = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload: { bankCode: OTHER_BANK, accountNumber: BENEFICIARY },
    });
    assert.equal(enquiry.statusCode, 200, enquiry.body);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers,
      payload: {
        nameEnquiryReference: enquiry.json().data.sessionId,
        debitAccountNumber: accountNumber,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: BENEFICIARY,
        amount,
        saveBeneficiary: false,
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    const data = response.json().data;
    return { id: data._id, sessionId: data.sessionId };
  }

  /** The transfer's row, its hold and its webhooks, straight from the database. */
  async function stateOf(transferId: string) {
    const [row] = await testApp.db.query<{
      status: string;
      response_code: string | null;
      response_message: string | null;
      status_queries: number;
      next_status_query_at: Date | null;
      hold_status: string;
    }>(
      `SELECT t.status, t.response_code, t.response_message, t.status_queries,
              t.next_status_query_at, h.status AS hold_status
         FROM transfers t JOIN ledger_holds h ON h.id = t.hold_id WHERE t.id = $1`,
      [transferId],
    );
    assert.ok(row, `transfer ${transferId} exists`);
    const webhooks = await testApp.db.query<{ status: string }>(
      `SELECT payload->'data'->>'status' AS status FROM webhook_events
        WHERE type = 'transfer' AND payload->'data'->>'_id' = $1`,
      [transferId],
    );
    const journals = await testApp.db.query<{ id: string }>(
      'SELECT id FROM ledger_journals WHERE transfer_id = $1',
      [transferId],
    );
    return {
      status: row.status,
      responseCode: row.response_code,
      responseMessage: row.response_message,
      statusQueries: row.status_queries,
      nextQueryAt: row.next_status_query_at,
      hold: row.hold_status,
      webhooks: webhooks.map((event) => event.status),
      journals: journals.length,
    };
  }

  async function heldKobo(): Promise<bigint> {
    const [row] = await testApp.db.query<{ held_kobo: bigint }>(
      'SELECT held_kobo FROM ledger_accounts WHERE id = $1',
      [accountId],
    );
    assert.ok(row);
    return row.held_kobo;
  }

  /** Processing with the hold in place and no webhook: the state of an unknown outcome. */
  async function assertStillInFlight(transferId: string, where: string) {
    const state = await stateOf(transferId);
    assert.equal(state.status, 'Processing', `${where}: status`);
    assert.equal(state.hold, 'pending', `${where}: hold`);
    assert.equal(state.journals, 0, `${where}: nothing posted`);
    assert.deepEqual(state.webhooks, [], `${where}: no webhook`);
    assert.equal(await heldKobo(), HOLD_KOBO, `${where}: the funds stay locked`);
    return state;
  }

  const secondsUntil = (date: Date | null) => {
    assert.ok(date, 'a next status query is scheduled');
    return (date.getTime() - testApp.clock.now().getTime()) / 1000;
  };

  describe('which transfers it claims', () => {
    it('only Processing ones, and only once next_status_query_at has come', async () => {
      const statusQueries = worker();
      const placedAt = testApp.clock.now();
      const inFlight = await place(100.97);
      const completed = await place(100);
      const failed = await place(100.05);
      const processing = await stateOf(inFlight.id);
      assert.equal(processing.status, 'Processing');
      assert.equal(processing.statusQueries, 0);
      assert.equal(processing.nextQueryAt?.getTime(), placedAt.getTime() + SCHEDULE[0] * 1000);
      const completedBefore = await stateOf(completed.id);
      const failedBefore = await stateOf(failed.id);
      assert.equal(completedBefore.nextQueryAt, null);
      assert.equal(failedBefore.nextQueryAt, null);

      assert.equal(await statusQueries.runOnce(), 0, 'nothing is due at once');
      testApp.clock.advanceSeconds(SCHEDULE[0] - 1);
      assert.equal(await statusQueries.runOnce(), 0, 'one second early');
      assert.deepEqual(control.queries, [], 'the rail was not asked');
      await assertStillInFlight(inFlight.id, 'before it is due');

      testApp.clock.advanceSeconds(1);
      assert.equal(await statusQueries.runOnce(), 1, 'due now');
      assert.deepEqual(control.queries, [inFlight.sessionId], 'only the due one was asked');
      const settled = await stateOf(inFlight.id);
      assert.equal(settled.status, 'Completed');
      assert.equal(settled.responseCode, '00');
      assert.equal(settled.statusQueries, 1);
      assert.equal(settled.nextQueryAt, null);
      assert.equal(settled.hold, 'posted');
      assert.equal(settled.journals, 1);
      assert.deepEqual(settled.webhooks, ['Completed']);
      assert.equal(await heldKobo(), 0n);
      assert.deepEqual(await stateOf(completed.id), completedBefore, 'Completed: untouched');
      assert.deepEqual(await stateOf(failed.id), failedBefore, 'Failed: untouched');

      testApp.clock.advanceSeconds(3600);
      assert.equal(await statusQueries.runOnce(), 0, 'a settled transfer is never asked again');
      assert.equal(control.queries.length, 1);
    });

    it('at most batchSize per round, the longest due first', async () => {
      const statusQueries = worker({ batchSize: 2 });
      const first = await place(100.97);
      testApp.clock.advanceSeconds(1);
      const second = await place(100.97);
      testApp.clock.advanceSeconds(1);
      const third = await place(100.97);
      testApp.clock.advanceSeconds(SCHEDULE[0]);
      assert.equal(await statusQueries.runOnce(), 2);
      assert.deepEqual(
        [...control.queries].sort(),
        [first.sessionId, second.sessionId].sort(),
        'the two due earliest',
      );
      assert.equal((await stateOf(third.id)).status, 'Processing');
      assert.equal(await statusQueries.runOnce(), 1);
      assert.equal(control.queries.at(-1), third.sessionId);
      assert.equal(await statusQueries.runOnce(), 0);
      for (const transfer of [first, second, third]) {
        const state = await stateOf(transfer.id);
        assert.equal(state.status, 'Completed');
        assert.deepEqual(state.webhooks, ['Completed']);
      }
    });
  });

  describe('backoff', () => {
    it('follows STATUS_QUERY_SCHEDULE_SECONDS while the answer stays ambiguous, then the last delay repeats', async () => {
      assert.deepEqual(testApp.config.transfers.statusQueryScheduleSeconds, SCHEDULE);
      const statusQueries = worker();
      control.onQuery = async () => outcomeFor('09');
      const transfer = await place(100.97);
      let state = await assertStillInFlight(transfer.id, 'after the timeout');
      const delays: number[] = [];
      for (let round = 1; round <= 5; round += 1) {
        const delay = secondsUntil(state.nextQueryAt);
        delays.push(delay);
        testApp.clock.advanceSeconds(delay - 1);
        assert.equal(await statusQueries.runOnce(), 0, `round ${round}: not before it is due`);
        testApp.clock.advanceSeconds(1);
        assert.equal(await statusQueries.runOnce(), 1, `round ${round}: due`);
        state = await assertStillInFlight(transfer.id, `round ${round}`);
        assert.equal(state.responseCode, '09', `round ${round}`);
        assert.equal(state.responseMessage, responseMessageFor('09'), `round ${round}`);
        assert.equal(state.statusQueries, round, `round ${round}: queries counted`);
      }
      delays.push(secondsUntil(state.nextQueryAt));
      assert.deepEqual(delays, [7, 11, 13, 13, 13, 13]);
      assert.equal(control.queries.length, 5);

      // The network finally answers: the simulator's script for .97 says the money arrived.
      control.onQuery = undefined;
      testApp.clock.advanceSeconds(secondsUntil(state.nextQueryAt));
      assert.equal(await statusQueries.runOnce(), 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Completed');
      assert.equal(settled.hold, 'posted');
      assert.deepEqual(settled.webhooks, ['Completed']);
      assert.equal(await heldKobo(), 0n);
    });
  });

  describe('the claim', () => {
    it('hides a claimed transfer from other rounds for claimSeconds while the rail is asked', async () => {
      const statusQueries = worker();
      const slowRail = gate();
      control.onQuery = slowRail.answer;
      const transfer = await place(100.97);
      testApp.clock.advanceSeconds(SCHEDULE[0]);
      const claimedAt = testApp.clock.now();
      const firstRound = statusQueries.runOnce();
      await slowRail.arrived(1);

      const claimed = await assertStillInFlight(transfer.id, 'while claimed');
      assert.equal(claimed.statusQueries, 1);
      assert.equal(claimed.nextQueryAt?.getTime(), claimedAt.getTime() + CLAIM_SECONDS * 1000);
      assert.equal(await statusQueries.runOnce(), 0, 'a second round skips it');
      assert.equal(await worker().runOnce(), 0, 'so does another worker');
      testApp.clock.advanceSeconds(CLAIM_SECONDS - 1);
      assert.equal(await statusQueries.runOnce(), 0, 'until the claim runs out');
      assert.deepEqual(control.queries, [transfer.sessionId], 'the rail was asked once');

      slowRail.open(0, outcomeFor('00'));
      assert.equal(await firstRound, 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Completed');
      assert.equal(settled.nextQueryAt, null);
      assert.deepEqual(settled.webhooks, ['Completed']);
      testApp.clock.advanceSeconds(1);
      assert.equal(await statusQueries.runOnce(), 0, 'settled: nothing to claim again');
    });

    it('is taken again once it runs out, and two answers still settle once', async () => {
      const statusQueries = worker();
      const slowRail = gate();
      control.onQuery = slowRail.answer;
      const transfer = await place(100.97);
      const [balanceBefore] = await testApp.db.query<{ balance_kobo: bigint }>(
        'SELECT balance_kobo FROM ledger_accounts WHERE id = $1',
        [accountId],
      );
      testApp.clock.advanceSeconds(SCHEDULE[0]);
      const firstRound = statusQueries.runOnce();
      await slowRail.arrived(1);
      testApp.clock.advanceSeconds(CLAIM_SECONDS);
      const secondRound = statusQueries.runOnce();
      await slowRail.arrived(2);
      assert.deepEqual(control.queries, [transfer.sessionId, transfer.sessionId]);
      assert.equal((await stateOf(transfer.id)).statusQueries, 2);

      slowRail.open(1, outcomeFor('00'));
      assert.equal(await secondRound, 1);
      slowRail.open(0, outcomeFor('00'));
      assert.equal(await firstRound, 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Completed');
      assert.equal(settled.journals, 1, 'posted once');
      assert.deepEqual(settled.webhooks, ['Completed'], 'one webhook');
      const [balanceAfter] = await testApp.db.query<{ balance_kobo: bigint }>(
        'SELECT balance_kobo FROM ledger_accounts WHERE id = $1',
        [accountId],
      );
      assert.equal(balanceAfter?.balance_kobo, (balanceBefore?.balance_kobo ?? 0n) - HOLD_KOBO);
    });
  });

  describe('a rail that throws', () => {
    it('leaves the transfer Processing on a status query: unknown, never failed', async () => {
      const statusQueries = worker();
      const transfer = await place(100.97);
      control.onQuery = () => {
        throw new Error('socket hang up');
      };
      testApp.clock.advanceSeconds(SCHEDULE[0]);
      assert.equal(await statusQueries.runOnce(), 1);
      let state = await assertStillInFlight(transfer.id, 'after a synchronous throw');
      assert.equal(state.responseCode, null);
      assert.equal(state.responseMessage, 'No answer from the rail: socket hang up');
      assert.equal(secondsUntil(state.nextQueryAt), SCHEDULE[1], 'asked again on the schedule');

      control.onQuery = async () => {
        throw new Error('read ECONNRESET');
      };
      testApp.clock.advanceSeconds(SCHEDULE[1]);
      assert.equal(await statusQueries.runOnce(), 1);
      state = await assertStillInFlight(transfer.id, 'after a rejected promise');
      assert.equal(state.responseMessage, 'No answer from the rail: read ECONNRESET');
      assert.equal(secondsUntil(state.nextQueryAt), SCHEDULE[2]);

      control.onQuery = undefined;
      testApp.clock.advanceSeconds(SCHEDULE[2]);
      assert.equal(await statusQueries.runOnce(), 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Completed');
      assert.deepEqual(settled.webhooks, ['Completed']);
    });

    it('on send, before the network took it: "no record" (25) is final only once the transfer is old enough', async () => {
      const statusQueries = worker();
      control.onSend = () => {
        throw new Error('connect ECONNREFUSED');
      };
      const transfer = await place(100.97);
      const placed = await assertStillInFlight(transfer.id, 'after the send threw');
      assert.equal(placed.responseCode, null);
      assert.equal(placed.responseMessage, 'No answer from the rail: connect ECONNREFUSED');

      control.onSend = undefined;
      testApp.clock.advanceSeconds(SCHEDULE[0]);
      assert.equal(await statusQueries.runOnce(), 1);
      // A young transfer's 25 may be a query that overtook a slow send: ask again later.
      const young = await assertStillInFlight(transfer.id, 'after an early 25');
      assert.equal(young.responseCode, '25');
      testApp.clock.advanceSeconds(testApp.config.transfers.statusQueryNotFoundGraceSeconds);
      assert.equal(await statusQueries.runOnce(), 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Failed');
      assert.equal(settled.responseCode, '25');
      assert.equal(settled.hold, 'voided');
      assert.equal(settled.journals, 0);
      assert.deepEqual(settled.webhooks, ['Failed']);
      assert.equal(await heldKobo(), 0n);
    });

    it('on send, after the network took it: Processing, then the TSQ finds it and completes', async () => {
      const statusQueries = worker();
      // The request reaches the network; only the answer is lost.
      control.onSend = async (request) => {
        await simulator.sendTransfer(request);
        throw new Error('read ETIMEDOUT');
      };
      const transfer = await place(100.97);
      const placed = await assertStillInFlight(transfer.id, 'after the send threw');
      assert.equal(placed.responseCode, null);
      assert.equal(placed.responseMessage, 'No answer from the rail: read ETIMEDOUT');
      const session = await simulator.inspectSession(transfer.sessionId);
      assert.equal(session?.amountKobo, 10_097n, 'the network has the transfer');

      testApp.clock.advanceSeconds(SCHEDULE[0]);
      assert.equal(await statusQueries.runOnce(), 1);
      const settled = await stateOf(transfer.id);
      assert.equal(settled.status, 'Completed');
      assert.equal(settled.responseCode, '00');
      assert.equal(settled.hold, 'posted');
      assert.deepEqual(settled.webhooks, ['Completed']);
      assert.equal(await heldKobo(), 0n);
    });
  });
});
