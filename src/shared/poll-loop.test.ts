import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPollLoop } from './poll-loop.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the poll loop through a database outage', () => {
  it('survives failing rounds, backs off, reports once, and polls at full pace once back', async () => {
    let down = true;
    const roundsAt: number[] = [];
    const reported: number[] = [];
    const recovered: number[] = [];
    const loop = createPollLoop(
      async () => {
        roundsAt.push(Date.now());
        if (down) {
          throw new Error('Connection terminated unexpectedly');
        }
        return 0;
      },
      {
        batchSize: 10,
        pollIntervalMs: 10,
        maxBackoffMs: 80,
        errorReportIntervalMs: 60_000,
        onError: (_error, failedRounds) => reported.push(failedRounds),
        onRecovered: (failedRounds) => recovered.push(failedRounds),
      },
    );
    loop.start();
    await sleep(400);
    const failedRounds = roundsAt.length;
    // 10, 20, 40, then 80 ms apart: far fewer rounds than 400 / 10.
    assert.ok(failedRounds >= 4 && failedRounds <= 12, `${failedRounds} failed rounds`);
    const gaps = roundsAt.slice(1).map((at, index) => at - (roundsAt[index] ?? at));
    assert.ok(Math.max(...gaps) < 200, `the pause is capped at 80 ms: ${gaps}`);
    assert.deepEqual(reported, [1], 'one report for the whole outage');

    down = false;
    await sleep(120);
    assert.deepEqual(recovered, [failedRounds], 'told once, with how many rounds failed');
    const before = roundsAt.length;
    await sleep(200);
    assert.ok(roundsAt.length - before >= 5, 'back at the normal 10 ms pace');
    await loop.stop();
  });

  it('reports again after the report interval while rounds keep failing', async () => {
    const reported: number[] = [];
    const loop = createPollLoop(
      async () => {
        throw new Error('connect ECONNREFUSED');
      },
      {
        batchSize: 1,
        pollIntervalMs: 5,
        maxBackoffMs: 5,
        errorReportIntervalMs: 50,
        onError: (_error, failedRounds) => reported.push(failedRounds),
      },
    );
    loop.start();
    await sleep(180);
    await loop.stop();
    assert.ok(reported.length >= 2 && reported.length <= 5, `${reported}`);
    assert.equal(reported[0], 1);
    assert.ok((reported[1] ?? 0) > 1, 'with how many rounds failed in a row');
  });

  it('a reporter that throws does not end the loop; stop() ends it during a back-off', async () => {
    let rounds = 0;
    const loop = createPollLoop(
      async () => {
        rounds += 1;
        throw new Error('down');
      },
      {
        batchSize: 1,
        pollIntervalMs: 5,
        maxBackoffMs: 10_000,
        onError: () => {
          throw new Error('the logger broke');
        },
      },
    );
    loop.start();
    await sleep(60);
    assert.ok(rounds >= 2, `${rounds} rounds`);
    const stoppedAt = Date.now();
    await loop.stop();
    assert.ok(Date.now() - stoppedAt < 1_000, 'stop does not wait for the back-off');
  });
});

describe('waking the poll loop (the sandbox clock moved)', () => {
  it('runs a round at once instead of after the pause, and answers when it is done', async () => {
    const rounds: number[] = [];
    const loop = createPollLoop(
      async () => {
        await sleep(20);
        rounds.push(Date.now());
        return 0;
      },
      { batchSize: 10, pollIntervalMs: 60_000 },
    );
    assert.equal(await Promise.race([loop.wake().then(() => 'woken'), sleep(5)]), 'woken');
    loop.start();
    await sleep(50);
    assert.equal(rounds.length, 1, 'the first round, then a minute of sleep');
    const wokenAt = Date.now();
    await loop.wake();
    assert.equal(rounds.length, 2, 'wake() answered after the round it caused');
    assert.ok(Date.now() - wokenAt < 1_000);
    await loop.stop();
  });

  it('a wake during a round runs another round right after it', async () => {
    let rounds = 0;
    const loop = createPollLoop(
      async () => {
        rounds += 1;
        await sleep(30);
        return 0;
      },
      { batchSize: 10, pollIntervalMs: 60_000 },
    );
    loop.start();
    await sleep(10);
    assert.equal(rounds, 1, 'the first round is running');
    await loop.wake();
    assert.equal(rounds, 2, 'the round in progress might have read the old time: one more ran');
    await loop.stop();
  });

  it('stop() lets a pending wake() answer', async () => {
    let release: () => void = () => {};
    const loop = createPollLoop(
      async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return 0;
      },
      { batchSize: 10, pollIntervalMs: 60_000 },
    );
    loop.start();
    await sleep(5);
    const woken = loop.wake();
    const stopped = loop.stop();
    release();
    await Promise.all([woken, stopped]);
  });
});
