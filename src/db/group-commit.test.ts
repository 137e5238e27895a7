import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGroupCommit, groupCommitLimits, withoutQueueBound } from './group-commit.ts';

/** A batch runner whose batches finish when the test says so. */
function controlledRunner() {
  const batches: {
    items: number[];
    finish: (results?: string[]) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const run = (items: readonly number[]) =>
    new Promise<readonly string[]>((resolve, reject) => {
      batches.push({
        items: [...items],
        finish: (results) => resolve(results ?? items.map((item) => `done ${item}`)),
        fail: reject,
      });
    });
  return { batches, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('sends an item within the same event-loop turn when a slot is free: no added latency when idle', async () => {
    const { batches, run } = controlledRunner();
    const group = createGroupCommit({ run, maxBatch: 10, maxInFlight: 1 });
    const answer = group.submit(1);
    await tick();
    assert.equal(batches.length, 1);
    assert.deepEqual(batches[0]?.items, [1]);
    batches[0]?.finish();
    assert.equal(await answer, 'done 1');
  });

  it('collects what arrives while a batch is in flight into the next batch, answered in order', async () => {
    const { batches, run } = controlledRunner();
    const group = createGroupCommit({ run, maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(1);
    await tick();
    const rest = [2, 3, 4].map((item) => group.submit(item));
    await tick();
    assert.equal(batches.length, 1, 'the others wait for the batch in flight');
    batches[0]?.finish();
    await first;
    await tick();
    assert.deepEqual(batches[1]?.items, [2, 3, 4]);
    batches[1]?.finish();
    assert.deepEqual(await Promise.all(rest), ['done 2', 'done 3', 'done 4']);
  });

  it('bounds a batch by maxBatch and the batches in flight by maxInFlight', async () => {
    const { batches, run } = controlledRunner();
    const group = createGroupCommit({ run, maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((item) => group.submit(item));
    await tick();
    // What arrives in one turn goes together, in batches of at most maxBatch.
    assert.deepEqual(
      batches.map((batch) => batch.items),
      [
        [1, 2],
        [3, 4],
      ],
    );
    batches[0]?.finish();
    await tick();
    assert.deepEqual(batches[2]?.items, [5, 6]);
    batches[1]?.finish();
    await tick();
    assert.deepEqual(batches[3]?.items, [7]);
    batches[2]?.finish();
    batches[3]?.finish();
    assert.equal((await Promise.all(answers)).length, 7);
  });

  it('retries a batch that deadlocked, whole, and fails only the batch for any other error', async () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    let calls = 0;
    const group = createGroupCommit<number, number>({
      run: async (items) => {
        calls += 1;
        if (calls === 1) {
          throw deadlock;
        }
        if (items.includes(13)) {
          throw new Error('unlucky');
        }
        return items.map((item) => item * 2);
      },
      maxBatch: 10,
      maxInFlight: 1,
    });
    assert.equal(await group.submit(2), 4);
    assert.equal(calls, 2, 'the deadlocked batch ran again');
    await assert.rejects(group.submit(13), /unlucky/);
    assert.equal(await group.submit(5), 10, 'a failed batch leaves the next one alone');
  });

  it('gives up on a batch that keeps deadlocking after maxAttempts', async () => {
    let calls = 0;
    const group = createGroupCommit<number, number>({
      run: async () => {
        calls += 1;
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      },
      maxBatch: 10,
      maxInFlight: 1,
      maxAttempts: 3,
    });
    await assert.rejects(group.submit(1), /deadlock/);
    assert.equal(calls, 3);
  });

  it('refuses a runner that answers a different number of results than items', async () => {
    const group = createGroupCommit<number, number>({
      run: async () => [1],
      maxBatch: 10,
      maxInFlight: 1,
    });
    const answers = [group.submit(1), group.submit(2)].map((answer) =>
      answer.then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    assert.deepEqual(await Promise.all(answers), [
      'a batch of 2 answered 1 results',
      'a batch of 2 answered 1 results',
    ]);
  });

  describe('with a bound on waiting items', () => {
    const full = () => new Error('queue full');
    /** How an item fared by the end of this turn: refused already, or still waiting. */
    const atOnce = (answer: Promise<unknown>) =>
      Promise.race([
        answer.then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        tick().then(() => 'still waiting'),
      ]);

    it('refuses the item past maxWaiting at once, without running it, and takes items again once the queue drains', async () => {
      const { batches, run } = controlledRunner();
      const group = createGroupCommit({
        run,
        maxBatch: 2,
        maxInFlight: 1,
        queue: { maxWaiting: 3, refuse: full },
      });
      const first = group.submit(1);
      await tick();
      // 1 is in flight; 2, 3 and 4 wait (the bound); 5 finds the queue full.
      const waiting = [2, 3, 4].map((item) => group.submit(item));
      assert.equal(await atOnce(group.submit(5)), 'queue full');
      await tick();
      assert.deepEqual(
        batches.map((batch) => batch.items),
        [[1]],
        'the refused item joins no batch',
      );
      batches[0]?.finish();
      await first;
      await tick();
      // 2 and 3 left the queue for the next batch: 4 waits alone, so two more fit.
      assert.deepEqual(batches[1]?.items, [2, 3]);
      const later = [6, 7].map((item) => group.submit(item));
      assert.equal(await atOnce(group.submit(8)), 'queue full');
      batches[1]?.finish();
      await tick();
      assert.deepEqual(batches[2]?.items, [4, 6]);
      batches[2]?.finish();
      await tick();
      assert.deepEqual(batches[3]?.items, [7]);
      batches[3]?.finish();
      assert.deepEqual(await Promise.all([...waiting, ...later]), [
        'done 2',
        'done 3',
        'done 4',
        'done 6',
        'done 7',
      ]);
      assert.deepEqual(
        batches.flatMap((batch) => batch.items),
        [1, 2, 3, 4, 6, 7],
        'nothing refused ever ran',
      );
    });

    it('counts only waiting items: those in flight leave room behind them', async () => {
      const { batches, run } = controlledRunner();
      const group = createGroupCommit({
        run,
        maxBatch: 1,
        maxInFlight: 2,
        queue: { maxWaiting: 1, refuse: full },
      });
      const first = group.submit(1);
      await tick();
      const second = group.submit(2);
      await tick();
      assert.equal(batches.length, 2, 'two batches in flight, none waiting');
      const third = group.submit(3);
      assert.equal(await atOnce(group.submit(4)), 'queue full');
      for (const batch of batches) {
        batch.finish();
      }
      await tick();
      batches[2]?.finish();
      assert.deepEqual(await Promise.all([first, second, third]), ['done 1', 'done 2', 'done 3']);
    });

    it('groupCommitLimits carries the bound it is given; withoutQueueBound drops it', () => {
      const queue = { maxWaiting: 7, refuse: full };
      const bounded = groupCommitLimits('postgres', queue);
      assert.deepEqual(bounded, { maxBatch: 48, maxInFlight: 2, queue });
      assert.deepEqual(withoutQueueBound(bounded), { maxBatch: 48, maxInFlight: 2 });
      assert.deepEqual(groupCommitLimits('pglite'), { maxBatch: 48, maxInFlight: 1 });
    });
  });
});
