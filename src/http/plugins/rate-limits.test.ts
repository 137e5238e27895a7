import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { adminHeaders, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { AppError } from '../../errors/app-error.ts';
import { installRateLimits } from './rate-limits.ts';

/** 429 in the error envelope, with a Retry-After of whole seconds. */
function assertLimited(response: LightMyRequestResponse, label: string) {
  assert.equal(response.statusCode, 429, `${label}: ${response.body}`);
  const body = response.json();
  assert.equal(body.statusCode, 429);
  assert.equal(body.code, 'RATE_LIMITED');
  assert.match(body.message, /^Too many /);
  assert.match(String(response.headers['retry-after']), /^[1-9]\d*$/, label);
}

describe('rate limits (counted in the process)', () => {
  let testApp: TestApp;
  let own: Awaited<ReturnType<typeof signedInClient>>;
  let other: Awaited<ReturnType<typeof signedInClient>>;

  before(async () => {
    testApp = await buildTestApp({
      RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP: '3',
      RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '50',
      RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: '3',
      RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '8',
      RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT: '2',
    });
    // Signing in spends two token requests from 127.0.0.1 (the clients come from other addresses).
    own = await signedInClient(testApp, 'Acme Ltd', 0);
    other = await signedInClient(testApp, 'Rival Ltd', 1);
  });
  after(() => testApp?.close());

  const tokenFrom = (remoteAddress: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      remoteAddress,
      payload: { grant_type: 'client_credentials' },
    });

  it('the token endpoint: per IP address, bad requests counted too', async () => {
    for (let index = 0; index < 3; index++) {
      assert.equal((await tokenFrom('192.0.2.10')).statusCode, 400);
    }
    assertLimited(await tokenFrom('192.0.2.10'), 'fourth from one address');
    assert.equal((await tokenFrom('192.0.2.11')).statusCode, 400, 'another address is its own');
  });

  it('the admin API: a few wrong tokens per IP, then 429 before the token is even compared', async () => {
    const admin = (remoteAddress: string, authorization: string) =>
      testApp.app.inject({
        method: 'GET',
        url: '/admin/clients/ffffffffffffffffffffffff',
        remoteAddress,
        headers: { authorization },
      });
    for (let index = 0; index < 3; index++) {
      assert.equal((await admin('198.51.100.7', 'Bearer guess')).statusCode, 401);
    }
    assertLimited(await admin('198.51.100.7', 'Bearer guess'), 'fourth wrong token');
    // Not compared: the right token from that address waits out the window too.
    assertLimited(await admin('198.51.100.7', adminHeaders.authorization), 'the right token');
    // Another address is not throttled by this one's failures.
    assert.equal((await admin('198.51.100.8', 'Bearer guess')).statusCode, 401);
    assert.notEqual((await admin('198.51.100.9', adminHeaders.authorization)).statusCode, 429);
  });

  it('the API: per client, whatever the route; another client is not slowed', async () => {
    const accounts = (headers: Record<string, string>) =>
      testApp.app.inject({ method: 'GET', url: '/accounts', headers });
    let answered = 0;
    let limited: LightMyRequestResponse | undefined;
    for (let index = 0; index < 12 && limited === undefined; index++) {
      const response = await accounts(own.headers);
      if (response.statusCode === 429) {
        limited = response;
      } else {
        assert.equal(response.statusCode, 200, response.body);
        answered++;
      }
    }
    assert.ok(limited, 'the client is limited within 12 requests');
    assertLimited(limited, 'over the per-client limit');
    assert.ok(answered <= 8, `${answered} answered, at most 8 allowed`);
    assert.equal((await accounts(other.headers)).statusCode, 200);
  });

  it('name enquiry: a stricter limit of its own per client', async () => {
    const enquire = () =>
      testApp.app.inject({
        method: 'POST',
        url: '/transfers/name-enquiry',
        headers: other.headers,
        payload: { bankCode: '000013', accountNumber: '0123456789' },
      });
    assert.equal((await enquire()).statusCode, 200);
    assert.equal((await enquire()).statusCode, 200);
    assertLimited(await enquire(), 'third enquiry');
    // The client's other routes still answer (within the general limit).
    const accounts = await testApp.app.inject({
      method: 'GET',
      url: '/accounts',
      headers: other.headers,
    });
    assert.equal(accounts.statusCode, 200, accounts.body);
  });
});

describe('name enquiry: a client that asks about many accounts that do not exist waits', () => {
  let testApp: TestApp;
  let walker: Awaited<ReturnType<typeof signedInClient>>;
  let honest: Awaited<ReturnType<typeof signedInClient>>;

  before(async () => {
    testApp = await buildTestApp({ RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '3' });
    walker = await signedInClient(testApp, 'Walker Ltd', 0);
    honest = await signedInClient(testApp, 'Honest Ltd', 1);
  });
  after(() => testApp?.close());

  // Sandbox NIP: a number ending 0000 is no account at the other bank.
  const enquire = (headers: Record<string, string>, accountNumber: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload: { bankCode: '000013', accountNumber },
    });

  it('answers its misses until it is over, then refuses every enquiry, found or not', async () => {
    for (const number of ['0123450000', '0123460000', '0123470000']) {
      const miss = await enquire(walker.headers, number);
      assert.equal(miss.statusCode, 400, miss.body);
      assert.equal(miss.json().code, 'NAME_ENQUIRY_FAILED');
    }
    // The fourth miss is counted over the limit; from then on the client waits.
    assert.equal((await enquire(walker.headers, '0123480000')).statusCode, 400);
    const found = await enquire(walker.headers, '0123456789');
    assertLimited(found, 'a real account, asked for by a client that is walking numbers');
    assert.match(found.json().message, /do not exist/);
    // Its other routes, and other clients' enquiries, are untouched.
    const accounts = await testApp.app.inject({
      method: 'GET',
      url: '/accounts',
      headers: walker.headers,
    });
    assert.equal(accounts.statusCode, 200);
    assert.equal((await enquire(honest.headers, '0123456789')).statusCode, 200);
  });

  it('never throttles enquiries that find accounts', async () => {
    for (let index = 0; index < 10; index++) {
      assert.equal((await enquire(honest.headers, '0123456789')).statusCode, 200);
    }
  });
});

describe('name enquiry: 1,000 enquiries for accounts that do not exist, at the default limit', () => {
  it('answers the first 300 misses and throttles the rest with 429 and Retry-After', async () => {
    const testApp = await buildTestApp({
      RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '300',
    });
    try {
      const walker = await signedInClient(testApp, 'Walker Ltd');
      const answers = new Map<number, number>();
      for (let index = 0; index < 1_000; index++) {
        // Sandbox NIP: a number ending 0000 is no account at the other bank.
        const accountNumber = `${String(100_000 + index)}0000`;
        const answer = await testApp.app.inject({
          method: 'POST',
          url: '/transfers/name-enquiry',
          headers: walker.headers,
          payload: { bankCode: '000013', accountNumber },
        });
        answers.set(answer.statusCode, (answers.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode === 429) {
          assert.ok(Number(answer.headers['retry-after']) > 0);
        }
      }
      // The 301st miss is answered and counted over the limit; every later one waits.
      assert.deepEqual(Object.fromEntries(answers), { 400: 301, 429: 699 });
    } finally {
      await testApp.close();
    }
  });
});

describe('a lockout, on its own', () => {
  it('locks a key on the failure that spends its allowance, refuses everything until the window ends, then lets it in', async () => {
    const app = Fastify();
    const limit = await installRateLimits(app, {});
    const lockout = limit.lockout({ name: 'guesses', max: 2, perSeconds: 1, key: (r) => r.ip });
    app.get<{ Querystring: { answer?: string } }>('/guess', async (request, reply) => {
      await lockout.refuseIfLocked(request);
      if (request.query.answer !== 'right') {
        await lockout.countFailure(request);
        throw new AppError('UNAUTHORIZED');
      }
      return reply.send('in');
    });
    app.setErrorHandler((error: AppError, _request, reply) =>
      reply
        .status(error.httpStatus)
        .headers(error.headers ?? {})
        .send(error.message),
    );
    try {
      const guess = (answer: string) =>
        app.inject({ method: 'GET', url: `/guess?answer=${answer}` });
      assert.equal((await guess('right')).statusCode, 200, 'asking counts nothing');
      assert.equal((await guess('wrong')).statusCode, 401);
      assert.equal((await guess('right')).statusCode, 200, 'one failure left');
      assert.equal((await guess('wrong')).statusCode, 401, 'the last one is answered');
      const locked = await guess('right');
      assert.equal(locked.statusCode, 429);
      assert.equal(locked.headers['retry-after'], '1');
      assert.match(locked.body, /^Too many failed attempts/);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      assert.equal((await guess('right')).statusCode, 200, 'the window has passed');
    } finally {
      await app.close();
    }
  });
});
