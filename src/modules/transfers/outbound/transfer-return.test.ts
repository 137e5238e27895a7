import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxCredit, sendTransfer, signedInClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import {
  assertLedgerInvariants,
  entryCount,
  type MoneySnapshot,
  moneySnapshot,
  statementLinesOf,
  transferEvents,
} from '../../../../test/nip-returns.ts';
import { createNipSimulator, type NipSimulator } from '../../../rails/nip/nip-simulator.ts';
import { SCRIPTED_RETURN_REASON } from '../../../rails/nip/simulator-returns.ts';
import { findTransferById, type TransferRecord } from '../transfer-repository.ts';
import { createStatusQueryWorker } from './status-query-worker.ts';

/**
 * Returned NIP transfers through the services: notices the rail delivers (applied once, refused
 * for what cannot come back), the kobo .81 script end to end, a transfer still Processing when
 * its return comes, and the status query after the return window that finds a lost notice.
 */

const OUR_BANK = '999240';
const CLAIM_SECONDS = 60;

interface Customer {
  readonly headers: Record<string, string>;
  readonly accountId: string;
  readonly accountNumber: string;
}

async function customer(testApp: TestApp, name: string): Promise<Customer> {
  const signedIn = await signedInClient(testApp, name);
  await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 20_000);
  return {
    headers: signedIn.headers,
    accountId: signedIn.client.mainAccountId,
    accountNumber: signedIn.client.mainAccountNumber,
  };
}

async function send(
  testApp: TestApp,
  from: Customer,
  amount: number,
  extra: Record<string, unknown> = {},
): Promise<TransferRecord> {
  const response = await sendTransfer(testApp.app, from.headers, {
    debitAccountNumber: from.accountNumber,
    amount,
    ...extra,
  });
  assert.equal(response.statusCode, 200, response.body);
  return load(testApp, response.json().data._id);
}

async function load(testApp: TestApp, transferId: string): Promise<TransferRecord> {
  const transfer = await findTransferById(testApp.db, transferId);
  assert.ok(transfer, `transfer ${transferId}`);
  return transfer;
}

const snapshotOf = (testApp: TestApp, who: Customer) =>
  moneySnapshot(testApp, who.headers, who.accountId);

/** Made whole: the balances and GL accounts as they were before the transfer, one event more. */
async function assertReturned(
  testApp: TestApp,
  transfer: TransferRecord,
  before: MoneySnapshot,
  who: Customer,
) {
  const now = await load(testApp, transfer.id);
  assert.equal(now.status, 'Reversed');
  assert.equal(now.isReversed, true);
  assert.match(now.reversalReference ?? '', /^\d{30}$/);
  assert.deepEqual(await snapshotOf(testApp, who), before, 'made whole');
  const events = await transferEvents(testApp.db, transfer.id);
  assert.deepEqual(
    events.map((event) => [event.status, event.reversalReference]),
    [
      ['Completed', null],
      ['Reversed', now.reversalReference],
    ],
  );
  await assertLedgerInvariants(testApp.db);
  return now;
}

describe('returns of NIP transfers: notices from the rail', () => {
  let testApp: TestApp;
  let payer: Customer;
  let network: NipSimulator;

  before(async () => {
    testApp = await buildTestApp(
      { NIP_SIMULATOR_RETURN_SECONDS: '1', ACCESS_TOKEN_TTL_SECONDS: '86400' },
      {
        rail: (config, clock) => {
          network = createNipSimulator({
            institutionCode: config.institutionCode,
            clock,
            returnAfterMs: 1_000,
          });
          return network;
        },
      },
    );
    payer = await customer(testApp, 'Returns Ltd');
  });
  after(() => testApp?.close());

  const notice = (transfer: TransferRecord, change: { amountKobo?: bigint } = {}) => ({
    sessionId: transfer.sessionId,
    returnSessionId: `000013${transfer.sessionId.slice(6)}`,
    amountKobo: change.amountKobo ?? transfer.amountKobo,
    reason: 'Account closed',
  });

  async function assertNothingMoves(run: () => Promise<unknown>, code: string) {
    const before = await snapshotOf(testApp, payer);
    const entries = await entryCount(testApp.db);
    await assert.rejects(run(), (error: Error & { code?: string }) => error.code === code);
    assert.deepEqual(await snapshotOf(testApp, payer), before);
    assert.equal(await entryCount(testApp.db), entries);
    await assertLedgerInvariants(testApp.db);
  }

  it('a notice for an unknown session, an intra-bank transfer, a Failed one: nothing moves', async () => {
    const returns = testApp.services.transferReturns;
    const completed = await send(testApp, payer, 40);
    const unknown = { ...notice(completed), sessionId: `${OUR_BANK}${'0'.repeat(24)}` };
    await assertNothingMoves(() => returns.receive(unknown), 'RECORD_NOT_FOUND');
    const other = await signedInClient(testApp, 'Payee Ltd');
    const intraBank = await send(testApp, payer, 15, {
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: other.client.mainAccountNumber,
    });
    await assertNothingMoves(() => returns.receive(notice(intraBank)), 'TRANSFER_NOT_RETURNABLE');
    const failed = await send(testApp, payer, 40.05);
    assert.equal(failed.status, 'Failed');
    await assertNothingMoves(() => returns.receive(notice(failed)), 'TRANSFER_NOT_RETURNABLE');
    const wrongAmount = notice(completed, { amountKobo: completed.amountKobo - 1n });
    await assertNothingMoves(() => returns.receive(wrongAmount), 'TRANSFER_NOT_RETURNABLE');
    assert.equal((await load(testApp, completed.id)).status, 'Completed');
  });

  it('kobo .81: Completed at once, then back by itself; the statement says why', async () => {
    const before = await snapshotOf(testApp, payer);
    const sent = await send(testApp, payer, 200.81);
    assert.equal(sent.status, 'Completed');
    const start = Date.now();
    while ((await load(testApp, sent.id)).status === 'Completed' && Date.now() - start < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const returned = await assertReturned(testApp, sent, before, payer);
    assert.ok(returned.reversalReference?.startsWith('000013'), "the beneficiary bank's session");
    const lines = await statementLinesOf(testApp, payer.headers, payer.accountId, sent.id);
    assert.ok(
      lines.some(
        (line) =>
          line.type === 'Credit' &&
          line.kobo === 20_081 &&
          line.narration === `Return of ${sent.sessionId}: ${SCRIPTED_RETURN_REASON}`,
      ),
      JSON.stringify(lines),
    );
  });

  it('a notice for a transfer still Processing is refused; its status query then settles and returns it', async () => {
    const before = await snapshotOf(testApp, payer);
    const sent = await send(testApp, payer, 300.97);
    assert.equal(sent.status, 'Processing');
    const held = await snapshotOf(testApp, payer);
    await assert.rejects(network.returnTransfer(sent.sessionId), /Completed/);
    assert.deepEqual(await snapshotOf(testApp, payer), held, 'still held, nothing returned');
    const queried = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/status',
      headers: payer.headers,
      payload: { sessionId: sent.sessionId },
    });
    assert.equal(queried.statusCode, 200, queried.body);
    assert.equal(queried.json().data.status, 'Reversed');
    assert.deepEqual(
      [queried.json().data.responseCode, queried.json().data.responseMessage],
      ['00', 'Approved or completed successfully'],
      'the transfer itself was approved',
    );
    await assertReturned(testApp, sent, before, payer);
  });
});

describe('returns of NIP transfers: the status query after the return window', () => {
  let testApp: TestApp;
  let payer: Customer;
  let network: NipSimulator;
  const rail = { queryThrows: false, queries: [] as string[] };

  before(async () => {
    testApp = await buildTestApp(
      { NIP_RETURN_CHECK_SECONDS: '900', ACCESS_TOKEN_TTL_SECONDS: '86400' },
      {
        // The network's return notices never reach OpenIBS: only status queries find them.
        rail: (config, clock) => {
          network = createNipSimulator({ institutionCode: config.institutionCode, clock });
          return {
            ...network,
            onTransferReturned: () => undefined,
            queryStatus: async (request) => {
              rail.queries.push(request.sessionId);
              if (rail.queryThrows) {
                throw new Error('connection reset');
              }
              return network.queryStatus(request);
            },
          };
        },
      },
    );
    payer = await customer(testApp, 'Lost Notices Ltd');
  });
  after(() => testApp?.close());

  const worker = () =>
    createStatusQueryWorker({
      db: testApp.db,
      clock: testApp.clock,
      outbound: testApp.services.outboundTransfers,
      batchSize: 16,
      pollIntervalMs: 1_000,
      claimSeconds: CLAIM_SECONDS,
    });

  const dueAt = async (transferId: string) =>
    (
      await testApp.db.query<{ next_status_query_at: Date | null }>(
        'SELECT next_status_query_at FROM transfers WHERE id = $1',
        [transferId],
      )
    )[0]?.next_status_query_at ?? null;

  it('finds a lost notice once the window has passed, and applies it once', async () => {
    const before = await snapshotOf(testApp, payer);
    const sent = await send(testApp, payer, 450);
    assert.equal(sent.status, 'Completed');
    const returnCheckAt = testApp.clock.now().getTime() + 900_000;
    assert.equal((await dueAt(sent.id))?.getTime(), returnCheckAt);
    const asked = await network.returnTransfer(sent.sessionId, 'Beneficiary deceased');
    assert.equal(asked.kind, 'returned');
    assert.equal((await load(testApp, sent.id)).status, 'Completed', 'the notice was lost');
    const statusQueries = worker();
    testApp.clock.advanceSeconds(899);
    assert.equal(await statusQueries.runOnce(), 0, 'not before the window has passed');
    testApp.clock.advanceSeconds(1);
    assert.equal(await statusQueries.runOnce(), 1);
    const returned = await assertReturned(testApp, sent, before, payer);
    assert.equal(returned.reversalReference, asked.kind === 'returned' && asked.returnSessionId);
    assert.equal(returned.statusQueries, 1);
    assert.equal(await dueAt(sent.id), null, 'no further status query');
    testApp.clock.advanceSeconds(3_600);
    assert.equal(await statusQueries.runOnce(), 0);
  });

  it('a check the rail did not answer is due again; answered without a return, it ends', async () => {
    const statusQueries = worker();
    const first = await send(testApp, payer, 120);
    const second = await send(testApp, payer, 130);
    testApp.clock.advanceSeconds(900);
    const before = await snapshotOf(testApp, payer);
    rail.queryThrows = true;
    try {
      assert.equal(await statusQueries.runOnce(), 2);
    } finally {
      rail.queryThrows = false;
    }
    assert.equal(
      (await dueAt(second.id))?.getTime(),
      testApp.clock.now().getTime() + CLAIM_SECONDS * 1000,
      'asked again once the claim runs out',
    );
    testApp.clock.advanceSeconds(CLAIM_SECONDS);
    rail.queries.length = 0;
    assert.equal(await statusQueries.runOnce(), 2);
    assert.deepEqual(rail.queries.sort(), [first.sessionId, second.sessionId].sort());
    for (const transfer of [first, second]) {
      assert.equal((await load(testApp, transfer.id)).status, 'Completed');
      assert.equal(await dueAt(transfer.id), null, 'the check ended');
    }
    assert.deepEqual(await snapshotOf(testApp, payer), before, 'nothing moved');
    testApp.clock.advanceSeconds(3_600);
    assert.equal(await statusQueries.runOnce(), 0);
    await assertLedgerInvariants(testApp.db);
  });
});
