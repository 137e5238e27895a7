import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../../test/harness.ts';
import { createCliContext } from './cli-context.ts';
import { COMMANDS } from './commands.ts';

describe('npx openibs sandbox:clock', () => {
  let testApp: TestApp;
  let url: string;
  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  });
  after(() => testApp?.close());

  const run = (...args: string[]) =>
    COMMANDS['sandbox:clock']?.run(
      createCliContext(
        ['sandbox:clock', '--url', url, '--admin-token', TEST_SECRETS.adminToken, ...args],
        {},
      ),
    ) as Promise<{ now: string; offsetSeconds: number; frozen: boolean }>;

  it('prints the clock, moves it forward, freezes and unfreezes it', async () => {
    const start = testApp.clock.now().getTime();
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
