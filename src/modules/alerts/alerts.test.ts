import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  adminHeaders,
  createClient,
  issueTokens,
  openSubAccount,
  sandboxCredit,
  sendTransfer,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { SmtpReceiver } from '../../../test/smtp-receiver.ts';

const BANK_CODE = '999240';

/**
 * Alerts end to end: money moves through the API, the alerts worker's two steps run (composed
 * from the ledger's notices, sent), and a real SMTP server on 127.0.0.1 receives the email;
 * the sandbox SMS simulator receives the texts.
 */
describe('customer alerts', { timeout: 120_000 }, () => {
  const receiver = new SmtpReceiver();
  let testApp: TestApp;

  before(async () => {
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
  });
  beforeEach(async () => {
    await testApp?.close();
    receiver.received.length = 0;
    receiver.refuseData = () => undefined;
    receiver.refuseRecipient = () => undefined;
  });
  after(async () => {
    await testApp?.close();
  });

  async function start(env: Record<string, string> = {}) {
    testApp = await buildTestApp(
      {
        SMTP_URL: receiver.url(),
        BANK_NAME: 'Test Bank',
        ALERTS_WORKER_ENABLED: 'false',
        ALERTS_RETRY_SCHEDULE_SECONDS: '5,5,5',
        PROVIDER_BREAKER_ENABLED: 'false',
        ...env,
      },
      {},
    );
  }

  /** Both steps of the worker until nothing is left that is due now. */
  async function drain() {
    for (let round = 0; round < 20; round += 1) {
      const composed = await testApp.services.alertComposer.composeBatch();
      const sent = await testApp.services.alertDelivery.sendBatch();
      if (composed === 0 && sent === 0) {
        return;
      }
    }
  }

  async function signedIn() {
    const client = await createClient(testApp.app, 'Ade Stores');
    const tokens = await issueTokens(testApp, client);
    const headers = {
      authorization: `Bearer ${tokens.access_token}`,
      clientid: client.ibsClientId,
    };
    return { client, headers };
  }

  async function settings(headers: Record<string, string>, accountId: string, body: object) {
    const response = await testApp.app.inject({
      method: 'PUT',
      url: `/accounts/${accountId}`,
      headers,
      payload: { notificationSettings: body },
    });
    assert.equal(response.statusCode, 200, response.body);
  }

  /** The client's email on record (the factory makes clients without one). */
  async function setClientEmail(clientId: string, email: string) {
    await testApp.db.query('UPDATE clients SET email_address = $2 WHERE id = $1', [
      clientId,
      email,
    ]);
  }

  it('an intra-bank transfer alerts both holders, by email and by SMS as their settings say', async () => {
    await start();
    const { client, headers } = await signedIn();
    await setClientEmail(client.ibsClientId, 'owner@ade.test');
    await sandboxCredit(testApp.app, client.mainAccountNumber, 50_000);
    const sub = await openSubAccount(testApp.app, headers, client.mainAccountNumber, {
      emailAddress: 'jane@ade.test',
      phoneNumber: '+2348031234567',
    });
    await settings(headers, sub._id, { smsNotification: true });
    await drain();
    receiver.received.length = 0;

    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      beneficiaryBankCode: BANK_CODE,
      beneficiaryAccountNumber: sub.accountNumber,
      amount: 1234.5,
      narration: 'School fees',
    });
    assert.equal(sent.statusCode, 200, sent.body);
    await drain();

    const toOwner = receiver.received.filter((m) => m.to === 'owner@ade.test');
    const toJane = receiver.received.filter((m) => m.to === 'jane@ade.test');
    assert.equal(toOwner.length, 1);
    assert.equal(toJane.length, 1);
    assert.match(toOwner[0]?.subject ?? '', /Test Bank Debit alert: ₦1,234\.50/);
    assert.match(toJane[0]?.subject ?? '', /Test Bank Credit alert: ₦1,234\.50/);
    assert.match(toJane[0]?.text ?? '', /School fees/);
    assert.match(
      toJane[0]?.text ?? '',
      new RegExp(`${sub.accountNumber.slice(0, 3)}\\*\\*\\*\\*${sub.accountNumber.slice(-3)}`),
    );
    assert.ok(!(toJane[0]?.text ?? '').includes(sub.accountNumber), 'the number is masked');
    assert.match(toJane[0]?.text ?? '', /2026-03-02 10:00 WAT/);
    assert.match(toJane[0]?.html ?? '', /Credit/);
    const texts = await testApp.app.inject({
      method: 'GET',
      url: `/admin/sandbox/messages?accountNumber=${sub.accountNumber}&channel=sms`,
      headers: adminHeaders,
    });
    assert.equal(texts.statusCode, 200, texts.body);
    const smsBodies = (texts.json().data as { body: string; status: string }[]).map((m) => m.body);
    assert.equal(smsBodies.filter((b) => /Credit: ₦1,234\.50/.test(b)).length, 1);
  });

  it('a NIP transfer alerts on the hold, then on its outcome', async () => {
    await start();
    const { client, headers } = await signedIn();
    await setClientEmail(client.ibsClientId, 'nip@ade.test');
    await sandboxCredit(testApp.app, client.mainAccountNumber, 50_000);
    await drain();
    receiver.received.length = 0;

    const completed = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 2000,
    });
    assert.equal(completed.statusCode, 200, completed.body);
    const failed = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 3000.05,
    });
    assert.equal(failed.statusCode, 200, failed.body);
    await drain();

    const subjects = receiver.received.map((m) => m.subject).sort();
    assert.deepEqual(
      subjects,
      [
        'Test Bank Debit alert: ₦2,010.75',
        'Test Bank Held alert: ₦2,010.75',
        'Test Bank Held alert: ₦3,010.80',
        'Test Bank Released alert: ₦3,010.80',
      ].sort(),
    );
  });

  it('settings turned off send nothing', async () => {
    await start();
    const { client, headers } = await signedIn();
    await setClientEmail(client.ibsClientId, 'quiet@ade.test');
    await settings(headers, client.mainAccountId, {
      emailNotification: false,
      smsNotification: false,
    });
    await sandboxCredit(testApp.app, client.mainAccountNumber, 50_000);
    await drain();
    assert.equal(receiver.received.length, 0);
    const [row] = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM alert_messages',
    );
    assert.equal(Number(row?.count), 0);
  });

  it('a holder is written to only where it can be reached; its notices are used up all the same', async () => {
    await start();
    // The factory's client has no email on record: its main account's holder has no contacts.
    const { client, headers } = await signedIn();
    await sandboxCredit(testApp.app, client.mainAccountNumber, 50_000);
    const textsOnly = await openSubAccount(testApp.app, headers, client.mainAccountNumber, {
      phoneNumber: '+2348037654321',
    });
    // A holder recorded without an email (accounts opened before email was required).
    await testApp.db.query('UPDATE accounts SET email_address = NULL WHERE id = $1', [
      textsOnly._id,
    ]);
    await settings(headers, textsOnly._id, { emailNotification: true, smsNotification: true });
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      beneficiaryBankCode: BANK_CODE,
      beneficiaryAccountNumber: textsOnly.accountNumber,
      amount: 700,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    await drain();

    assert.equal(receiver.received.length, 0, 'no email: neither holder has an address');
    const messages = await testApp.db.query<{ account_id: string; channel: string }>(
      'SELECT account_id, channel FROM alert_messages ORDER BY channel',
    );
    assert.deepEqual(messages, [{ account_id: textsOnly._id, channel: 'sms' }]);
    const [left] = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ledger_notices',
    );
    assert.equal(Number(left?.count), 0);
  });

  it('a receiver that fails (4xx) then recovers gets each message once', async () => {
    await start();
    const { client } = await signedIn();
    await setClientEmail(client.ibsClientId, 'retry@ade.test');
    let refusals = 3;
    receiver.refuseData = () =>
      refusals-- > 0 ? { code: 451, message: 'try again later' } : undefined;
    for (const amount of [100, 200]) {
      await sandboxCredit(testApp.app, client.mainAccountNumber, amount);
    }
    await drain();
    assert.equal(receiver.received.length, 0, 'nothing arrives while it refuses');
    for (let i = 0; i < 4; i += 1) {
      testApp.clock.advance(6_000);
      await drain();
    }
    const ids = receiver.received.map((m) => m.messageId);
    assert.equal(ids.length, 2);
    assert.equal(new Set(ids).size, 2);
    const rows = await testApp.db.query<{ id: string; status: string; attempts: number }>(
      `SELECT id, status, attempts FROM alert_messages WHERE channel = 'email'`,
    );
    assert.deepEqual(
      rows.map((r) => r.status),
      ['sent', 'sent'],
    );
    assert.deepEqual(
      ids.sort(),
      rows.map((r) => `<${r.id}@alerts.openibs>`).sort(),
      'the Message-ID is the message row id, the same on every retry',
    );
  });

  it('a permanent 5xx suppresses the address: it is not tried again', async () => {
    await start();
    const { client } = await signedIn();
    await setClientEmail(client.ibsClientId, 'gone@ade.test');
    let asked = 0;
    receiver.refuseRecipient = (address) => {
      asked += 1;
      return address === 'gone@ade.test' ? { code: 550, message: 'no such user' } : undefined;
    };
    await sandboxCredit(testApp.app, client.mainAccountNumber, 100);
    await drain();
    assert.equal(asked, 1);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 200);
    testApp.clock.advance(60_000);
    await drain();
    assert.equal(asked, 1, 'the suppressed address is never asked again');
    const rows = await testApp.db.query<{ status: string }>(
      'SELECT status FROM alert_messages ORDER BY created_at',
    );
    assert.deepEqual(
      rows.map((r) => r.status),
      ['failed', 'suppressed'],
    );
    const [suppressed] = await testApp.db.query<{ destination: string }>(
      'SELECT destination FROM alert_suppressed_destinations',
    );
    assert.equal(suppressed?.destination, 'gone@ade.test');
  });

  it('an account is sent at most its share a minute; the rest wait, none lost', async () => {
    await start({ ALERTS_PER_ACCOUNT_PER_MINUTE: '2' });
    const { client } = await signedIn();
    await setClientEmail(client.ibsClientId, 'busy@ade.test');
    for (const amount of [101, 102, 103, 104, 105]) {
      await sandboxCredit(testApp.app, client.mainAccountNumber, amount);
    }
    await drain();
    assert.equal(receiver.received.length, 2);
    testApp.clock.advance(61_000);
    await drain();
    assert.equal(receiver.received.length, 4);
    testApp.clock.advance(61_000);
    await drain();
    assert.equal(receiver.received.length, 5);
    assert.equal(new Set(receiver.received.map((m) => m.messageId)).size, 5);
  });
});
