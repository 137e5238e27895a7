import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { guardProvider, type ProviderGuardOptions } from './provider-guard.ts';

type Outcome =
  | { kind: 'done' }
  | { kind: 'unavailable'; why: string }
  | { kind: 'notDone'; why: string };

interface Vendor {
  act(value: number): Promise<Outcome>;
  register(name: string): string;
  readonly label: string;
}

function vendor(behaviour: { current: 'ok' | 'hang' | 'throw' | 'unavailable' }) {
  const calls: number[] = [];
  const target: Vendor = {
    label: 'vendor',
    async act(value) {
      calls.push(value);
      switch (behaviour.current) {
        case 'hang':
          return new Promise<Outcome>(() => undefined);
        case 'throw':
          throw new Error('connection reset');
        case 'unavailable':
          return { kind: 'unavailable', why: 'down' };
        default:
          return { kind: 'done' };
      }
    },
    register: (name) => `registered ${name}`,
  };
  return { target, calls };
}

const OPTIONS: ProviderGuardOptions = {
  name: 'vendor',
  timeoutMs: 50,
  breakerEnabled: true,
  errorThresholdPercent: 50,
  minimumCalls: 4,
  resetTimeoutMs: 200,
};

function guarded(target: Vendor, options: Partial<ProviderGuardOptions> = {}) {
  return guardProvider(
    target,
    {
      act: {
        unanswered: (why) => ({ kind: 'unavailable', why }),
        notCalled: (why) => ({ kind: 'notDone', why }),
        isFailure: (outcome) => outcome.kind === 'unavailable',
      },
    },
    { ...OPTIONS, ...options },
  );
}

describe('guardProvider', () => {
  it('answers the unanswered outcome when the vendor hangs past the deadline', async () => {
    const behaviour = { current: 'hang' as const };
    const { target } = vendor(behaviour);
    const started = performance.now();
    const outcome = await guarded(target).act(1);
    const waited = performance.now() - started;
    assert.equal(outcome.kind, 'unavailable');
    assert.match((outcome as { why: string }).why, /no answer within 50 ms/);
    assert.ok(waited >= 45 && waited < 1_000, `waited ${waited} ms`);
  });

  it('answers the unanswered outcome when the vendor throws', async () => {
    const { target } = vendor({ current: 'throw' });
    const outcome = await guarded(target).act(1);
    assert.deepEqual(outcome, { kind: 'unavailable', why: 'connection reset' });
  });

  it('opens after enough failures: the vendor is not called and "not done" is answered', async () => {
    const behaviour: { current: 'ok' | 'unavailable' } = { current: 'unavailable' };
    const { target, calls } = vendor(behaviour);
    const guard = guarded(target);
    for (let index = 0; index < 4; index++) {
      assert.equal((await guard.act(index)).kind, 'unavailable', 'the vendor’s own answer');
    }
    assert.equal(calls.length, 4);
    const refused = await guard.act(99);
    assert.equal(refused.kind, 'notDone');
    assert.equal(calls.length, 4, 'not called while open');

    // After the reset timeout one call goes through; a success closes the breaker again.
    behaviour.current = 'ok';
    await sleep(250);
    assert.equal((await guard.act(100)).kind, 'done');
    assert.equal((await guard.act(101)).kind, 'done');
    assert.deepEqual(calls.slice(4), [100, 101]);
  });

  it('with the breaker off, only the deadline applies', async () => {
    const { target, calls } = vendor({ current: 'unavailable' });
    const guard = guarded(target, { breakerEnabled: false });
    for (let index = 0; index < 10; index++) {
      assert.equal((await guard.act(index)).kind, 'unavailable');
    }
    assert.equal(calls.length, 10);
    const hanging = vendor({ current: 'hang' });
    const outcome = await guarded(hanging.target, { breakerEnabled: false }).act(1);
    assert.match((outcome as { why: string }).why, /no answer within 50 ms/);
  });

  it('passes every other member straight through', () => {
    const { target } = vendor({ current: 'ok' });
    const guard = guarded(target);
    assert.equal(guard.register('handler'), 'registered handler');
    assert.equal(guard.label, 'vendor');
    assert.ok('register' in guard);
  });
});
