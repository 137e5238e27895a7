import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { Db } from '../db/db.ts';
import { installErrorHandlers } from '../errors/error-handler.ts';
import { healthRoutes } from './health.ts';

/** A database whose every query does what `answer` says. */
function fakeDb(answer: () => Promise<unknown[]>): Db {
  return {
    kind: 'postgres',
    query: answer as Db['query'],
    exec: async () => undefined,
    transaction: () => Promise.reject(new Error('not used')),
    close: async () => undefined,
  };
}

async function healthApp(db: Db) {
  const app = Fastify({ logger: false });
  installErrorHandlers(app);
  await app.register(healthRoutes, { db, readyTimeoutMs: 100 });
  return app;
}

describe('/health and /ready while the database is unreachable', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
  const apps: Awaited<ReturnType<typeof healthApp>>[] = [];
  after(() => Promise.all(apps.map((app) => app.close())));

  it('refused: /ready answers 503 DATABASE_UNAVAILABLE with Retry-After, /health 200', async () => {
    const app = await healthApp(fakeDb(() => Promise.reject(refused)));
    apps.push(app);
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, 'DATABASE_UNAVAILABLE');
    assert.equal(ready.json().statusCode, 503);
    assert.match(String(ready.headers['retry-after']), /^[1-9]\d*$/);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/health' })).json(), {
      status: 'ok',
    });
  });

  it('no answer at all: /ready gives up after its timeout, 503', async () => {
    const app = await healthApp(fakeDb(() => new Promise(() => undefined)));
    apps.push(app);
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, 'DATABASE_UNAVAILABLE');
  });

  it('ready again as soon as the database answers', async () => {
    let up = false;
    const app = await healthApp(
      fakeDb(() => (up ? Promise.resolve([{}]) : Promise.reject(refused))),
    );
    apps.push(app);
    assert.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 503);
    up = true;
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });
  });
});
