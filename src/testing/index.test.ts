/**
 * openibs/testing from source: a sandbox bank started in this process on a free port, used only
 * through what the entry point offers. The package job (scripts/test-package.js) runs the packed
 * entry under node:test, Vitest and Jest.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixtureNuban, privatePem } from '../../test/sandbox-fixtures.ts';
import { type Sandbox, startSandbox } from './index.ts';

const PAYER = { name: 'Payer Ltd', ibsClientId: '65f1a0000000000000000a01' };
const PAYER_ACCOUNT = fixtureNuban(41);

const FIXTURES = {
  seed: 'testing-entry',
  clients: [
    {
      ...PAYER,
      emailAddress: 'payer@example.test',
      apps: [{ oauthClientId: 'a1'.repeat(16), privateKeyPem: privatePem(0) }],
      accounts: [{ accountNumber: PAYER_ACCOUNT, balance: 1000 }],
    },
  ],
};

describe('startSandbox with fixtures', () => {
  let bank: Sandbox;
  let closed = false;
  before(async () => {
    bank = await startSandbox({ fixtures: FIXTURES, port: 0, logLevel: 'silent' });
  });
  after(() => (closed ? undefined : bank?.close()));

  const balance = async () => (await bank.account(PAYER_ACCOUNT)).accountBalance;

  it('signs a fixtures client in by name or id: its token opens the API as that client', async () => {
    assert.match(bank.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const payer = bank.client(PAYER.name);
    assert.equal(bank.client(PAYER.ibsClientId).oauthClientId, payer.oauthClientId);
    assert.throws(() => bank.client('Nobody Ltd'), /no client Nobody Ltd/);
    const accounts = await fetch(`${bank.url}/accounts`, {
      headers: { authorization: `Bearer ${await payer.token()}`, clientid: payer.ibsClientId },
    });
    assert.equal(accounts.status, 200);
    const [main] = ((await accounts.json()) as { data: Record<string, unknown>[] }).data;
    assert.equal(main?.accountNumber, PAYER_ACCOUNT);
    assert.equal(await balance(), 1000);
  });

  it('moves the clock forward by a duration and reads it back', async () => {
    const before = await bank.clock.now();
    const moved = await bank.clock.advance('PT2H');
    assert.ok(moved.getTime() - before.getTime() >= 2 * 3600_000);
    assert.ok((await bank.clock.now()).getTime() >= moved.getTime());
  });

  it("a fault it sets meets the client's next call, once", async () => {
    await bank.faults.inject({ clientId: PAYER.ibsClientId, route: 'GET /accounts', fault: '503' });
    assert.deepEqual(
      (await bank.faults.list(PAYER.ibsClientId)).map((fault) => [fault.route, fault.remaining]),
      [['GET /accounts', 1]],
    );
    const headers = await bank.client(PAYER.name).headers();
    assert.equal((await fetch(`${bank.url}/accounts`, { headers })).status, 503);
    assert.equal((await fetch(`${bank.url}/accounts`, { headers })).status, 200);
    assert.deepEqual(await bank.faults.list(), []);
  });

  it('a credit lands; waitFor finds the webhook its predicate picks, or rejects when none comes', async () => {
    const waiting = bank.webhooks.waitFor(
      'transfer',
      (_record, payload) => (payload.data as { amount?: number }).amount === 250,
    );
    await bank.credit({ accountNumber: PAYER_ACCOUNT, amount: 250 });
    assert.equal(await balance(), 1250);
    const webhook = await waiting;
    assert.equal(webhook.clientId, PAYER.ibsClientId);
    await assert.rejects(
      bank.webhooks.waitFor('transfer', () => false, { timeoutMs: 500 }),
      /no transfer webhook within 500 ms/,
    );
  });

  it('messages() shows the alert email the credit caused, as the holder reads it', async () => {
    await bank.credit({ accountNumber: PAYER_ACCOUNT, amount: 75 });
    const deadline = Date.now() + 10_000;
    let found: Awaited<ReturnType<Sandbox['messages']>>[number] | undefined;
    while (found === undefined && Date.now() < deadline) {
      const messages = await bank.messages({ accountNumber: PAYER_ACCOUNT, channel: 'email' });
      found = messages.find((message) => message.subject?.includes('₦75.00'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(found !== undefined, 'the alert arrived in the inbox');
    assert.equal(found.to, 'payer@example.test');
    assert.match(found.body, /Credit/);
  });

  it('a NIP transfer the beneficiary bank returns comes back whole', async () => {
    const headers = {
      ...(await bank.client(PAYER.name).headers()),
      'content-type': 'application/json',
    };
    const post = async (path: string, body: object) =>
      (
        await fetch(`${bank.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      ).json() as Promise<{ data: Record<string, string> }>;
    const beneficiary = { bankCode: '000013', accountNumber: '0123456789' };
    const before = await balance();
    const enquiry = await post('/transfers/name-enquiry', beneficiary);
    const sent = await post('/transfers', {
      nameEnquiryReference: enquiry.data.sessionId,
      debitAccountNumber: PAYER_ACCOUNT,
      beneficiaryBankCode: beneficiary.bankCode,
      beneficiaryAccountNumber: beneficiary.accountNumber,
      amount: 100,
      saveBeneficiary: false,
    });
    assert.equal(sent.data.status, 'Completed');
    assert.equal(await balance(), Number(before) - 110.75, 'amount, ₦10 fee and ₦0.75 VAT');
    const returned = await bank.returnTransfer({ sessionId: String(sent.data.sessionId) });
    assert.deepEqual([returned.status, returned.isReversed], ['Reversed', true]);
    assert.equal(await balance(), before);
  });

  it('a credit its sending bank recalls goes back', async () => {
    const before = await balance();
    const credit = (await bank.credit({ accountNumber: PAYER_ACCOUNT, amount: 25 })) as {
      sessionId: string;
    };
    const recalled = (await bank.recallCredit({ sessionId: credit.sessionId })) as {
      transfer: { status: string };
      lien: unknown;
    };
    assert.deepEqual([recalled.transfer.status, recalled.lien], ['Reversed', null]);
    assert.equal(await balance(), before);
  });

  it("reset puts the fixtures' balances back and empties the inbox", async () => {
    await bank.credit({ accountNumber: PAYER_ACCOUNT, amount: 10 });
    assert.notEqual(await balance(), 1000);
    await bank.reset();
    assert.equal(await balance(), 1000);
    assert.deepEqual(await bank.webhooks.list(), []);
  });

  it('close() stops the bank: nothing answers on its port', async () => {
    closed = true;
    await bank.close();
    await assert.rejects(fetch(`${bank.url}/health`), TypeError);
  });
});

it('refuses IBS_ENV=production', async () => {
  await assert.rejects(
    startSandbox({ env: { IBS_ENV: 'production' } }),
    /starts a sandbox only: IBS_ENV must be unset or "sandbox"/,
  );
});
