// PostgreSQL only: how long the pool keeps an unused connection (its backend process).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onPostgres, TEST_DATABASE_URL } from '../../test/test-db.ts';
import { createPgDb } from './pg-db.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The backend process a pool of one answers on, now and after `quietMs` without a query. */
async function backendsAcrossQuiet(idleConnectionSeconds: number | undefined, quietMs: number) {
  const db = createPgDb({
    connectionString: TEST_DATABASE_URL ?? '',
    poolSize: 1,
    ...(idleConnectionSeconds === undefined ? {} : { idleConnectionSeconds }),
  });
  try {
    const pid = async () =>
      (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid;
    const before = await pid();
    await sleep(quietMs);
    const openAfterQuiet = db.poolStats?.().total;
    return { before, after: await pid(), openAfterQuiet };
  } finally {
    await db.close();
  }
}

describe('PostgreSQL pool: unused connections', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  it('keeps them by default: the next query after a quiet spell finds its warm backend', async () => {
    // Longer than pg-pool's own default of 10 s would close it after.
    const seen = await backendsAcrossQuiet(undefined, 10_500);
    assert.equal(seen.openAfterQuiet, 1);
    assert.equal(seen.after, seen.before);
  });

  it('closes them after DATABASE_POOL_IDLE_SECONDS when set', async () => {
    const seen = await backendsAcrossQuiet(1, 1_600);
    assert.equal(seen.openAfterQuiet, 0);
    assert.notEqual(seen.after, seen.before);
  });
});
