// PostgreSQL only: PGlite is one session, so a reset there never meets a request mid-way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { createHttpSender } from '../../src/webhooks/http-sender.ts';
import { OTHER_BANK, OTHER_BANK_ACCOUNT, rsaKeyPair } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import {
  ACME,
  applyFixtures,
  fixtureClientHeaders,
  RIVAL,
  resetSandbox,
  sampleFixtures,
} from '../sandbox-fixtures.ts';
import { WebhookReceiver } from '../webhook-receiver.ts';

const LOAD_MS = 4000;
const RESET_EVERY_MS = 400;
const SENDERS = 8;
// What the load must include to mean anything; on a busy machine it takes longer than LOAD_MS,
// so the load goes on until then (and fails the counts below if even this much time is not enough).
const ENOUGH_RESETS = 3;
const ENOUGH_DONE = 50;
const LOAD_DEADLINE_MS = 60_000;

/** The load's window: LOAD_MS, longer until enough resets and requests have been done. */
class LoadWindow {
  resets = 0;
  done = 0;
  private readonly started = Date.now();

  get open(): boolean {
    const elapsed = Date.now() - this.started;
    if (elapsed < LOAD_MS) {
      return true;
    }
    const enough = this.resets >= ENOUGH_RESETS && this.done > ENOUGH_DONE;
    return !enough && elapsed < LOAD_DEADLINE_MS;
  }
}

interface Outcome {
  readonly what: string;
  readonly status: number;
  readonly body: string;
}

describe('sandbox reset under load (PostgreSQL)', () => {
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 20, clockStart: new Date() });
    await receiver.start();
    const applied = await applyFixtures(
      testApp.app,
      sampleFixtures({ webhookUrl: receiver.url() }),
    );
    assert.equal(applied.statusCode, 200, applied.body);
  });
  after(async () => {
    await receiver.stop();
    await testApp?.close();
  });

  async function tableCounts(): Promise<Record<string, number>> {
    const rows = await testApp.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name NOT IN ('audit_events', 'schema_migrations') ORDER BY table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table } of rows) {
      const [row] = await testApp.db.query<{ count: bigint }>(`SELECT count(*) FROM ${table}`);
      counts[table] = Number(row?.count ?? 0n);
    }
    return counts;
  }

  /** Name enquiries, transfers (intra-bank and NIP) and reads, one after the other. */
  async function sender(index: number, headers: Record<string, string>, load: LoadWindow) {
    const outcomes: Outcome[] = [];
    const call = async (what: string, request: InjectOptions) => {
      const response = await testApp.app.inject(request);
      outcomes.push({ what, status: response.statusCode, body: response.body });
      if (response.statusCode === 200) {
        load.done += 1;
      }
      return response;
    };
    for (let round = 0; load.open; round += 1) {
      const nip = round % 2 === 1;
      const beneficiary = {
        beneficiaryBankCode: nip ? OTHER_BANK : '999240',
        beneficiaryAccountNumber: nip ? OTHER_BANK_ACCOUNT : RIVAL.mainAccountNumber,
      };
      const enquiry = await call('name enquiry', {
        method: 'POST',
        url: '/transfers/name-enquiry',
        headers,
        payload: {
          bankCode: beneficiary.beneficiaryBankCode,
          accountNumber: beneficiary.beneficiaryAccountNumber,
        },
      });
      await call('transfer', {
        method: 'POST',
        url: '/transfers',
        headers,
        payload: {
          ...beneficiary,
          nameEnquiryReference: enquiry.json().data?.sessionId ?? 'none',
          debitAccountNumber: ACME.mainAccountNumber,
          amount: 1 + index,
          saveBeneficiary: false,
        },
      });
      await call('read', { method: 'GET', url: '/accounts', headers });
    }
    return outcomes;
  }

  async function resetter(load: LoadWindow) {
    const tookMs: number[] = [];
    while (load.open) {
      await new Promise((resolve) => setTimeout(resolve, RESET_EVERY_MS));
      const response = await resetSandbox(testApp.app);
      assert.equal(response.statusCode, 200, response.body);
      tookMs.push(response.json().data.tookMs);
      load.resets += 1;
    }
    return tookMs;
  }

  it('answers every request, keeps the ledger whole, and ends with the fixtures exactly', async (t) => {
    assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
    const fixtureCounts = await tableCounts();
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      new Date(),
    );
    const httpSender = createHttpSender({
      timeoutMs: 1000,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
    const worker = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender: httpSender,
      retryScheduleSeconds: [1],
      timeoutMs: 1000,
      batchSize: 20,
      pollIntervalMs: 20,
      fence: testApp.services.deliveryFence,
    });
    worker.start();
    const load = new LoadWindow();
    let results: [number[], ...Outcome[][]];
    try {
      results = await Promise.all([
        resetter(load),
        ...Array.from({ length: SENDERS }, (_, index) => sender(index, headers, load)),
      ]);
      assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
    } finally {
      await worker.stop();
    }
    const [resets, ...senders] = results;
    const outcomes = senders.flat();
    const delivered = receiver.requests.length;
    await worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    httpSender.close();
    assert.equal(receiver.requests.length, delivered, 'nothing from before the reset arrives');
    assert.ok(resets.length >= ENOUGH_RESETS, `resets ran: ${resets.length}`);
    assert.ok(outcomes.filter((outcome) => outcome.status === 200).length > ENOUGH_DONE);
    const tally: Record<string, number> = {};
    for (const { what, status, body } of outcomes) {
      const key = `${what} ${status}${status >= 400 ? ` ${JSON.parse(body).code}` : ''}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    t.diagnostic(`resets took ${resets.join(', ')} ms; answers ${JSON.stringify(tally)}`);
    for (const outcome of outcomes) {
      // Done, or SANDBOX_RESET for what a reset overtook: never a server error, nor a refusal
      // that describes the world the reset took away.
      const answered = outcome.status === 200 || JSON.parse(outcome.body).code === 'SANDBOX_RESET';
      assert.ok(answered, `${outcome.what}: ${outcome.body}`);
    }
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
    assert.deepEqual(await tableCounts(), fixtureCounts);
  });
});
