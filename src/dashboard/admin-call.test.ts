/**
 * The dashboard's admin calls: the URL, headers and body each call sends, a success typed and
 * checked against the admin contract, a refusal in the admin API's words, and an answer outside
 * the contract turned into a failure. Stand-in admin routes answer, in a bare Fastify.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type AdminApi, adminCaller } from './admin-call.ts';

interface Seen {
  readonly method: string;
  readonly url: string;
  /** The path parameters the route read, as JSON. */
  readonly params: string;
  readonly body: unknown;
  readonly headers: FastifyRequest['headers'];
  readonly ip: string;
}

const CLOCK = { now: '2026-03-02T09:00:00.000Z', offsetSeconds: 0, frozen: true };

describe('the dashboard’s admin calls', () => {
  let app: FastifyInstance;
  let seen: Seen[] = [];
  /** What the test does with the admin API, with the signed-in session's credential. */
  let scenario: (admin: AdminApi) => Promise<unknown>;
  const run = async <T>(steps: (admin: AdminApi) => Promise<T>) => {
    scenario = steps;
    seen = [];
    const answer = await app.inject({ method: 'GET', url: '/page', remoteAddress: '10.9.8.7' });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json();
  };

  before(async () => {
    app = Fastify();
    app.addHook('preHandler', async (request) => {
      if (request.url.startsWith('/admin')) {
        const { method, url, body, headers, ip } = request;
        seen.push({ method, url, params: JSON.stringify(request.params), body, headers, ip });
      }
    });
    app.get('/page', async (request) => scenario(adminCaller(app, 'the-token', request)));
    app.get('/admin/sandbox/clock', async () => ({
      statusCode: 200,
      message: 'Clock.',
      data: CLOCK,
    }));
    app.post('/admin/sandbox/clock', async (_request, reply) =>
      reply.status(400).send({ statusCode: 400, message: 'Give advance or freeze.' }),
    );
    app.delete('/admin/sandbox/faults/:id', async () => ({
      statusCode: 200,
      message: 'Cleared.',
      data: { cleared: 1 },
    }));
    app.get('/admin/sandbox/faults', async () => ({
      statusCode: 200,
      message: 'Faults.',
      data: [],
    }));
    // An action held under four eyes: 202 and the approval, not the action's answer.
    app.post('/admin/accounts/:accountNumber/unfreeze', async (_request, reply) =>
      reply.status(202).send({
        statusCode: 202,
        message: 'Sent for approval (apr_1).',
        data: {
          approvalId: 'apr_1',
          status: 'pending',
          expiresAt: '2026-03-03T09:00:00.000Z',
          action: 'POST /admin/accounts/:accountNumber/unfreeze',
        },
      }),
    );
    // A route that answers outside its contract (ok must be a boolean).
    app.get('/admin/ledger', async () => ({
      statusCode: 200,
      message: 'Ledger.',
      data: { ok: 1 },
    }));
    await app.ready();
  });
  after(() => app?.close());

  it('a success is the whole answer, marked ok', async () => {
    const answer = await run((admin) => admin.get('/admin/sandbox/clock'));
    assert.deepEqual(answer, { ok: true, statusCode: 200, message: 'Clock.', data: CLOCK });
  });

  it('sends the session’s credential (no typed name), the request id and the browser’s address', async () => {
    await run((admin) => admin.get('/admin/sandbox/clock'));
    const [call] = seen;
    assert.equal(call?.headers.authorization, 'Bearer the-token');
    assert.equal(call?.headers['x-operator'], undefined);
    assert.match(String(call?.headers['x-request-id']), /^req-/);
    assert.equal(call?.ip, '10.9.8.7');
    assert.equal(call?.headers['content-type'], undefined);
  });

  it('fills the path parameters encoded, and sends the query without what is left out', async () => {
    await run(async (admin) => {
      await admin.delete('/admin/sandbox/faults/:id', { params: { id: 'a/b c?' } });
      return admin.get('/admin/sandbox/faults', { query: { clientId: 'x&y' } });
    });
    assert.equal(seen[0]?.url, '/admin/sandbox/faults/a%2Fb%20c%3F');
    assert.equal(seen[0]?.params, JSON.stringify({ id: 'a/b c?' }));
    assert.equal(seen[1]?.url, '/admin/sandbox/faults?clientId=x%26y');
    await run((admin) => admin.get('/admin/sandbox/faults', { query: { clientId: undefined } }));
    assert.equal(seen[0]?.url, '/admin/sandbox/faults');
  });

  it('a refusal carries the admin API’s status and words; the body went as JSON', async () => {
    const answer = await run((admin) =>
      admin.post('/admin/sandbox/clock', { body: { advance: 'PT1H' } }),
    );
    assert.deepEqual(answer, { ok: false, statusCode: 400, message: 'Give advance or freeze.' });
    assert.equal(seen[0]?.headers['content-type'], 'application/json');
    assert.deepEqual(seen[0]?.body, { advance: 'PT1H' });
  });

  it('an answer outside the route’s contract is a failure, never half a page', async () => {
    const answer = await run((admin) => admin.get('/admin/ledger'));
    assert.deepEqual(answer, {
      ok: false,
      statusCode: 502,
      message: 'GET /admin/ledger answered outside its contract',
    });
  });

  it('an action held under four eyes (202): not done and not an error, with the approval', async () => {
    const answer = await run((admin) =>
      admin.post('/admin/accounts/:accountNumber/unfreeze', {
        params: { accountNumber: '0123456789' },
      }),
    );
    assert.deepEqual(answer, {
      ok: false,
      statusCode: 202,
      message: 'Sent for approval (apr_1).',
      approvalId: 'apr_1',
    });
  });
});
