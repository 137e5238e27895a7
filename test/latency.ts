import assert from 'node:assert/strict';

/**
 * Each call answers no sooner than `latencyMs`, and not on the next turn of the event loop.
 * Use a latency of 100 ms or more: wide enough that a busy machine cannot run the simulator's
 * timer before that next turn.
 */
export async function assertEachAnswersAfter(
  latencyMs: number,
  calls: readonly (() => Promise<unknown>)[],
): Promise<void> {
  for (const call of calls) {
    const started = performance.now();
    let settled = false;
    const pending = call().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'not answered on the next turn of the event loop');
    await pending;
    // Timers may fire up to a millisecond early by rounding; a lower bound only.
    assert.ok(performance.now() - started >= latencyMs - 1);
  }
}
