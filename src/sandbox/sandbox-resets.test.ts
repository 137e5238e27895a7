import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandboxResets } from './sandbox-resets.ts';

describe('the sandbox reset registry', () => {
  it('runs every clearing in the order registered, waiting for each', async () => {
    const resets = createSandboxResets();
    const ran: string[] = [];
    resets.register('first', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push('first');
    });
    resets.register('second', () => {
      ran.push('second');
    });
    await resets.runAll();
    assert.deepEqual(ran, ['first', 'second']);
    assert.deepEqual(resets.names(), ['first', 'second']);
  });

  it('replaces a clearing registered again under its name, and unregisters', async () => {
    const resets = createSandboxResets();
    const ran: string[] = [];
    const offOld = resets.register('limits', () => {
      ran.push('old');
    });
    const offNew = resets.register('limits', () => {
      ran.push('new');
    });
    offOld(); // no longer the registered one: changes nothing
    await resets.runAll();
    offNew();
    await resets.runAll();
    assert.deepEqual(ran, ['new']);
    assert.deepEqual(resets.names(), []);
  });

  it('fails the reset when a clearing fails', async () => {
    const resets = createSandboxResets();
    resets.register('broken', () => {
      throw new Error('cannot clear');
    });
    await assert.rejects(resets.runAll(), /cannot clear/);
  });
});
