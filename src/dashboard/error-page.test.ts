import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { AppError, databaseUnavailable } from '../errors/app-error.ts';
import { errorPage } from './error-page.ts';

describe('the dashboard error page', () => {
  let app: FastifyInstance;

  before(async () => {
    app = Fastify();
    app.setErrorHandler(errorPage);
    app.get('/limited', async () => {
      throw new AppError('RATE_LIMITED', 'Too many attempts. Retry in 42 seconds.', {
        headers: { 'retry-after': '42' },
      });
    });
    app.get('/missing', async () => {
      throw new AppError('RECORD_NOT_FOUND');
    });
    app.get('/database', async () => {
      throw databaseUnavailable(new Error('connection refused'));
    });
    app.get('/bug', async () => {
      throw new Error('select * from secrets');
    });
    await app.ready();
  });
  after(() => app?.close());

  it('an AppError answers with its own status, message and headers (Retry-After)', async () => {
    const answer = await app.inject({ method: 'GET', url: '/limited' });
    assert.equal(answer.statusCode, 429);
    assert.equal(answer.headers['retry-after'], '42');
    assert.match(String(answer.headers['content-type']), /^text\/html/);
    assert.match(answer.body, /Error 429/);
    assert.match(answer.body, /Retry in 42 seconds/);
    const missing = await app.inject({ method: 'GET', url: '/missing' });
    assert.equal(missing.statusCode, new AppError('RECORD_NOT_FOUND').httpStatus);
  });

  it('a 5xx AppError keeps its status and Retry-After, and shows no details', async () => {
    const answer = await app.inject({ method: 'GET', url: '/database' });
    assert.equal(answer.statusCode, 503);
    assert.match(String(answer.headers['retry-after']), /^[1-9]\d*$/);
    assert.match(answer.body, /server log has the details/);
  });

  it('anything else is a 500 without its message', async () => {
    const answer = await app.inject({ method: 'GET', url: '/bug' });
    assert.equal(answer.statusCode, 500);
    assert.doesNotMatch(answer.body, /secrets/);
  });
});
