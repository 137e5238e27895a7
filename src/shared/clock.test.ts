import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ADVANCE_MS, ManualClock, SandboxClock } from './clock.ts';

/** Real time as a test sets it. */
function realTime(start: string) {
  let ms = Date.parse(start);
  return { read: () => ms, pass: (by: number) => (ms += by) };
}

describe('SandboxClock', () => {
  it('runs at real time by default, and keeps running after an advance', async () => {
    const real = realTime('2026-03-02T09:00:00Z');
    const clock = new SandboxClock({}, real.read);
    assert.equal(clock.now().toISOString(), '2026-03-02T09:00:00.000Z');
    await clock.advance(7_200_000);
    assert.equal(clock.now().toISOString(), '2026-03-02T11:00:00.000Z');
    real.pass(1_000);
    assert.equal(clock.now().toISOString(), '2026-03-02T11:00:01.000Z');
    assert.deepEqual(clock.state(), {
      now: new Date('2026-03-02T11:00:01Z'),
      offsetMs: 7_200_000,
      frozen: false,
    });
  });

  it('frozen, moves only when advanced', async () => {
    const real = realTime('2026-03-02T09:00:00Z');
    const clock = new SandboxClock(
      { startAt: new Date('2025-01-01T00:00:00Z'), frozen: true },
      real.read,
    );
    real.pass(60_000);
    assert.equal(clock.now().toISOString(), '2025-01-01T00:00:00.000Z');
    await clock.advance(1_000);
    assert.equal(clock.now().toISOString(), '2025-01-01T00:00:01.000Z');
    assert.equal(clock.state().frozen, true);
  });

  it('never goes backwards, by zero, or absurdly far', async () => {
    const clock = new SandboxClock();
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, MAX_ADVANCE_MS + 1]) {
      await assert.rejects(clock.advance(ms), RangeError, String(ms));
    }
  });

  it('freezes where it is and runs on from where it stopped', () => {
    const real = realTime('2026-03-02T09:00:00Z');
    const clock = new SandboxClock({ startAt: new Date('2026-03-02T10:00:00Z') }, real.read);
    real.pass(5_000);
    clock.freeze(true);
    real.pass(60_000);
    assert.equal(clock.now().toISOString(), '2026-03-02T10:00:05.000Z');
    clock.freeze(false);
    real.pass(1_000);
    assert.equal(clock.now().toISOString(), '2026-03-02T10:00:06.000Z');
  });

  it('resets to real time, or to a start frozen or running', () => {
    const real = realTime('2026-03-02T09:00:00Z');
    const clock = new SandboxClock({ startAt: new Date('2030-01-01T00:00:00Z') }, real.read);
    assert.equal(clock.reset().now.toISOString(), '2026-03-02T09:00:00.000Z');
    assert.equal(clock.state().offsetMs, 0);
    const frozen = clock.reset({ startAt: new Date('2024-06-01T00:00:00Z'), frozen: true });
    assert.deepEqual([frozen.now.toISOString(), frozen.frozen], ['2024-06-01T00:00:00.000Z', true]);
  });

  it('tells listeners after an advance and waits for them; a failing one changes nothing', async () => {
    const clock = new SandboxClock();
    const told: string[] = [];
    const stop = clock.onAdvance(async (state) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      told.push(state.offsetMs >= 1_000 ? 'moved' : 'not moved');
    });
    clock.onAdvance(() => {
      throw new Error('a broken listener');
    });
    await clock.advance(1_000);
    assert.deepEqual(told, ['moved'], 'the advance answered after the listener finished');
    stop();
    await clock.advance(1_000);
    assert.deepEqual(told, ['moved']);
  });
});

describe('ManualClock (tests)', () => {
  it('is a frozen sandbox clock a test may also move backwards', () => {
    const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
    assert.ok(clock instanceof SandboxClock);
    clock.advanceSeconds(-60);
    assert.equal(clock.now().toISOString(), '2026-03-02T08:59:00.000Z');
    clock.set(new Date('2020-01-01T00:00:00Z'));
    assert.equal(clock.now().toISOString(), '2020-01-01T00:00:00.000Z');
  });
});
