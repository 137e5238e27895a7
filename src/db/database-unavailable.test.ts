import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../errors/app-error.ts';
import { installErrorHandlers } from '../errors/error-handler.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting or unreachable', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('write EPIPE', 'EPIPE'),
      withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection due to crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('the database system is shutting down', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('could not extend file: No space left on device', '53100'),
      withCode('out of memory', '53200'),
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
      withCode('connection failure', '08006'),
      withCode('could not connect', '08001'),
      // A host name with several addresses: Node reports every refusal together.
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'failed'),
      new Error('wrapped', { cause: new Error('Connection terminated unexpectedly') }),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, String(error));
    }
  });

  it('leaves statement errors and anything else alone', () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('could not serialize access', '40001'),
      withCode('deadlock detected', '40P01'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('syntax error', '42601'),
      new Error('Something else'),
      new TypeError('x is undefined'),
      'Connection terminated unexpectedly',
      undefined,
      null,
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
    }
  });
});

describe('a request that meets an unreachable database', () => {
  const app = Fastify({ logger: false });
  installErrorHandlers(app);
  app.get('/refused', async () => {
    throw withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
  });
  app.get('/terminated', async () => {
    throw withCode('terminating connection due to administrator command', '57P01');
  });
  app.get('/duplicate', async () => {
    throw withCode('duplicate key value violates unique constraint', '23505');
  });
  after(() => app.close());

  it('answers 503 DATABASE_UNAVAILABLE in the error envelope, with Retry-After', async () => {
    for (const url of ['/refused', '/terminated']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 503, url);
      assert.equal(response.headers['retry-after'], String(DATABASE_RETRY_AFTER_SECONDS));
      const message = databaseUnavailable().message;
      assert.deepEqual(response.json(), {
        statusCode: 503,
        error: 'Service Unavailable',
        message,
        error_description: message,
        code: 'DATABASE_UNAVAILABLE',
      });
    }
  });

  it('a statement error is still a 500 (our bug, not an outage)', async () => {
    const response = await app.inject({ method: 'GET', url: '/duplicate' });
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'INTERNAL_ERROR');
    assert.equal(response.headers['retry-after'], undefined);
  });
});
