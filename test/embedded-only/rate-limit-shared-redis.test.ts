import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { type ServerProcess, startServerProcess } from '../server-process.ts';

// Redis runs beside PostgreSQL on this machine and in CI (.ci/run starts it).
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 4;
const ADMIN_TOKEN = 'redis-limits-admin-token-0123456789abcdefghij';

/**
 * Two server processes (each on its own embedded database: only the counters are shared) with
 * their rate limits in one Redis: a client spreading its requests over both still gets the one
 * limit, not one per process.
 */
describe('rate limits shared through Redis by two server processes', () => {
  const prefix = `openibs-test-${randomBytes(6).toString('hex')}:`;
  const servers: { server: ServerProcess; baseUrl: string }[] = [];
  const dataDirs: string[] = [];

  before(async () => {
    for (let index = 0; index < 2; index++) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-redis-limits-'));
      dataDirs.push(dataDir);
      servers.push(
        await startServerProcess({
          DATA_DIR: dataDir,
          RATE_LIMIT_REDIS_URL: REDIS_URL,
          RATE_LIMIT_REDIS_PREFIX: prefix,
          RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP: String(LIMIT),
          RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: String(LIMIT),
          ADMIN_TOKEN,
        }),
      );
    }
  });

  after(async () => {
    await Promise.all(servers.map(({ server }) => server.terminate()));
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis.disconnect();
  });

  it('counts token requests to either process against one limit per address', async () => {
    const statuses: number[] = [];
    // Alternate between the two processes: 3 to each, 6 in all, from one address.
    for (let index = 0; index < 6; index++) {
      const { baseUrl } = servers[index % 2] as { baseUrl: string };
      const response = await fetch(`${baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      });
      statuses.push(response.status);
      if (response.status === 429) {
        const body = (await response.json()) as { code: string };
        assert.equal(body.code, 'RATE_LIMITED');
        assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      }
    }
    // In-process counters would have let all six through (three per process, under four).
    assert.deepEqual(statuses, [400, 400, 400, 400, 429, 429], statuses.join(','));
    const redis = new Redis(REDIS_URL);
    try {
      assert.ok((await redis.keys(`${prefix}*`)).length > 0, 'the counters are in Redis');
    } finally {
      redis.disconnect();
    }
  });

  it('locks an address out of the admin API on both processes once its wrong tokens are spent', async () => {
    const admin = (index: number, token: string) =>
      fetch(`${(servers[index % 2] as { baseUrl: string }).baseUrl}/admin/clients?limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
    const statuses: number[] = [];
    // Two wrong tokens to each process: the address's whole allowance, spread over both.
    for (let index = 0; index < LIMIT; index++) {
      statuses.push((await admin(index, 'wrong-guess')).status);
    }
    // Then the right token, to each: neither compares it.
    for (let index = 0; index < 2; index++) {
      const answer = await admin(index, ADMIN_TOKEN);
      statuses.push(answer.status);
      if (answer.status === 429) {
        assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      }
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429], statuses.join(','));
  });
});
