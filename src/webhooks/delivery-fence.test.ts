import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rsaKeyPair } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import {
  ACME,
  applyFixtures,
  fixtureClientHeaders,
  RIVAL,
  sampleFixtures,
} from '../../test/sandbox-fixtures.ts';
import type { Db } from '../db/db.ts';
import { createDeliveryFence } from './delivery-fence.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import type { WebhookSender } from './http-sender.ts';

describe('the delivery fence', () => {
  it('runs a send claimed under the current generation', async () => {
    const fence = createDeliveryFence();
    assert.equal(await fence.send(fence.generation(), async () => 'sent'), 'sent');
  });

  it('refuses a send claimed before a reset, without running it', async () => {
    const fence = createDeliveryFence();
    const claimedUnder = fence.generation();
    await fence.advance();
    let ran = false;
    const result = await fence.send(claimedUnder, async () => {
      ran = true;
    });
    assert.equal(result, undefined);
    assert.equal(ran, false);
  });

  it('makes a reset wait for the sends already on the wire', async () => {
    const fence = createDeliveryFence();
    let finish: () => void = () => undefined;
    const sending = fence.send(
      fence.generation(),
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    let advanced = false;
    const advancing = fence.advance().then(() => {
      advanced = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(advanced, false, 'the reset waits');
    finish();
    await Promise.all([sending, advancing]);
    assert.equal(advanced, true);
  });
});

describe('the delivery worker behind the fence', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
    const fixtures = sampleFixtures({ webhookUrl: 'http://127.0.0.1:9/hooks' });
    assert.equal((await applyFixtures(testApp.app, fixtures)).statusCode, 200);
  });
  after(() => testApp.close());

  it('sends nothing of a batch it claimed just before a reset', async () => {
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
    const enquiry = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload: { bankCode: '999240', accountNumber: RIVAL.mainAccountNumber },
    });
    const transfer = await testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers,
      payload: {
        nameEnquiryReference: enquiry.json().data.sessionId,
        debitAccountNumber: ACME.mainAccountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: RIVAL.mainAccountNumber,
        amount: 10,
      },
    });
    assert.equal(transfer.statusCode, 200, transfer.body);
    const fence = createDeliveryFence();
    const sent: string[] = [];
    const sender: WebhookSender = {
      send: async (url) => {
        sent.push(url);
        return { statusCode: 200, latencyMs: 1, error: undefined, responseExcerpt: '' };
      },
      close: () => undefined,
    };
    // The real database; a reset starts the moment the claim has committed, before any send.
    const db: Db = {
      ...testApp.db,
      query: async (sql, params) => {
        const rows = await testApp.db.query(sql, params);
        if (sql.includes('UPDATE webhook_events SET attempts = attempts + 1')) {
          await fence.advance();
        }
        return rows as never;
      },
    };
    const worker = createDeliveryWorker({
      db,
      clock: testApp.clock,
      sender,
      retryScheduleSeconds: [1],
      timeoutMs: 500,
      batchSize: 10,
      pollIntervalMs: 10,
      fence,
    });
    assert.ok((await worker.runOnce()) > 0, 'the worker claimed the transfer events');
    assert.deepEqual(sent, []);
  });
});
