import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sandboxCredit, sendTransfer, signedInClient } from '../../test/factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../../test/harness.ts';
import { createCliContext } from './cli-context.ts';
import { COMMANDS } from './commands.ts';

/** A test app listening on a port of its own, for the CLI to call over HTTP. */
function useListeningApp(): { app: () => TestApp; url: () => string } {
  let testApp: TestApp;
  let url: string;
  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  });
  after(() => testApp?.close());
  return { app: () => testApp, url: () => url };
}

/** Runs a command against `url` with the admin token, as `npx openibs` would. */
function runCommand<Answer>(name: string, url: string, args: string[]): Promise<Answer> {
  return COMMANDS[name]?.run(
    createCliContext([name, '--url', url, '--admin-token', TEST_SECRETS.adminToken, ...args], {}),
  ) as Promise<Answer>;
}

describe('npx openibs sandbox:clock', () => {
  const { app, url } = useListeningApp();
  const run = (...args: string[]) =>
    runCommand<{ now: string; offsetSeconds: number; frozen: boolean }>(
      'sandbox:clock',
      url(),
      args,
    );

  it('prints the clock, moves it forward, freezes and unfreezes it', async () => {
    const start = app().clock.now().getTime();
    assert.equal((await run()).now, new Date(start).toISOString());
    const moved = await run('--advance', 'PT2H');
    assert.equal(moved.now, new Date(start + 7_200_000).toISOString());
    assert.equal((await run('--unfreeze')).frozen, false);
    assert.equal((await run('--freeze')).frozen, true);
  });

  it('reports a refused duration as the server words it', async () => {
    await assert.rejects(run('--advance=-PT1H'), /^Error: 400: .*ISO 8601 duration/);
    await assert.rejects(run('--freeze', '--unfreeze'), /cannot go together/);
  });
});

describe('npx openibs sandbox:return', () => {
  const { app, url } = useListeningApp();
  const run = (...args: string[]) =>
    runCommand<{ status: string; isReversed: boolean; sessionId: string }>(
      'sandbox:return',
      url(),
      args,
    );

  it('returns a Completed NIP transfer with the reason given, and refuses it twice', async () => {
    const { client, headers } = await signedInClient(app());
    await sandboxCredit(app().app, client.mainAccountNumber, 1_000);
    const sent = await sendTransfer(app().app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 100,
    });
    const { sessionId } = sent.json().data;
    const returned = await run('--session', sessionId, '--reason', 'Account closed');
    assert.deepEqual(
      [returned.sessionId, returned.status, returned.isReversed],
      [sessionId, 'Reversed', true],
    );
    await assert.rejects(run('--session', sessionId), /^Error: 400: Only a Completed/);
    await assert.rejects(run(), /--session/);
  });
});

describe('npx openibs sandbox:recall', () => {
  const { app, url } = useListeningApp();
  const run = (...args: string[]) =>
    runCommand<{
      transfer: { status: string; reversalReference: string; sessionId: string };
      lien: { amount: number; reason: string } | null;
    }>('sandbox:recall', url(), args);

  it('recalls a credit the account had spent, with the reason given; refuses it twice', async () => {
    const { client, headers } = await signedInClient(app());
    const credit = await sandboxCredit(app().app, client.mainAccountNumber, 1_000);
    const spent = await sendTransfer(app().app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 489.25, // ₦500 with the fee and VAT
    });
    assert.equal(spent.statusCode, 200, spent.body);
    const recalled = await run('--session', credit.sessionId, '--reason', 'Fraud');
    assert.deepEqual(
      [recalled.transfer.sessionId, recalled.transfer.status, recalled.lien?.amount],
      [credit.sessionId, 'Reversed', 500],
    );
    assert.equal(recalled.lien?.reason, `Recall of ${credit.sessionId}: Fraud`);
    await assert.rejects(run('--session', credit.sessionId), /^Error: 400: Only a Completed/);
    await assert.rejects(run(), /--session/);
  });
});
