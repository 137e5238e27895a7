import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountBalance, sandboxCredit, sendTransfer, signedInClient } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { loadConfig } from './config/config.ts';
import {
  guardBiller,
  guardIdentityBureau,
  guardRail,
  guardUssdGateway,
} from './guarded-providers.ts';
import type { IdentityBureau } from './modules/identity/index.ts';
import type { Biller } from './modules/vas/index.ts';
import { createNipSimulator } from './rails/nip/nip-simulator.ts';
import type { Rail } from './rails/rail.ts';

/**
 * A rail that hangs: transfers still answer within the deadline, as Processing (the outcome is
 * unknown, settled by a status query, never refunded on the timeout alone), requests and
 * database connections are not held by the hanging calls, and once the rail keeps failing the
 * breaker opens and new transfers fail at once with their money back.
 */
describe('a hanging rail behind its deadline and circuit breaker', () => {
  let testApp: TestApp;
  const control = { hang: false, sends: 0 };

  before(async () => {
    testApp = await buildTestApp(
      {
        RAIL_TIMEOUT_MS: '300',
        PROVIDER_BREAKER_MIN_CALLS: '6',
        PROVIDER_BREAKER_RESET_MS: '60000',
        ACCESS_TOKEN_TTL_SECONDS: '86400',
      },
      {
        poolSize: 2,
        rail: (config, clock) => {
          const simulator = createNipSimulator({ institutionCode: config.institutionCode, clock });
          return new Proxy(simulator, {
            get(target, property, receiver) {
              if (property === 'sendTransfer') {
                return (request: Parameters<Rail['sendTransfer']>[0]) => {
                  control.sends += 1;
                  return control.hang ? new Promise(() => undefined) : target.sendTransfer(request);
                };
              }
              return Reflect.get(target, property, receiver);
            },
          });
        },
      },
    );
  });
  after(() => testApp?.close());

  it('answers Processing within the deadline, holds the money, and frees every connection', async () => {
    const { client, headers } = await signedInClient(testApp);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 10_000);
    control.hang = true;
    const started = performance.now();
    // Four at once on a pool of two connections: none may wait on another's hanging call.
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        sendTransfer(testApp.app, headers, {
          debitAccountNumber: client.mainAccountNumber,
          amount: 100,
        }),
      ),
    );
    const waited = performance.now() - started;
    for (const answer of answers) {
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.json().data.status, 'Processing');
    }
    assert.ok(waited < 5_000, `answered in ${Math.round(waited)} ms`);
    const listed = await testApp.app.inject({ method: 'GET', url: '/accounts', headers });
    assert.equal(listed.statusCode, 200, 'the API still answers while four calls hang');
    // The held money is not given back on a timeout alone.
    const balance = await accountBalance(testApp.app, headers, client.mainAccountNumber);
    assert.ok(balance !== undefined && balance < 10_000 - 400);
  });

  it('once the rail keeps failing, the breaker opens: new transfers fail at once, money back', async () => {
    const { client, headers } = await signedInClient(testApp, 'Second Ltd');
    await sandboxCredit(testApp.app, client.mainAccountNumber, 1_000);
    // Two more timeouts make six failed calls: the breaker opens.
    for (const _ of [1, 2]) {
      await sendTransfer(testApp.app, headers, {
        debitAccountNumber: client.mainAccountNumber,
        amount: 10,
      });
    }
    const sendsBefore = control.sends;
    const before = await accountBalance(testApp.app, headers, client.mainAccountNumber);
    const refused = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 50,
    });
    assert.equal(control.sends, sendsBefore, 'the rail was not called');
    const transfer = refused.json().data;
    assert.equal(transfer.status, 'Failed', refused.body);
    assert.equal(transfer.responseCode, '91');
    const after = await accountBalance(testApp.app, headers, client.mainAccountNumber);
    assert.equal(after, before, 'the refused transfer holds nothing');
  });
});

describe('each vendor’s degraded answers', () => {
  const hang = () => new Promise<never>(() => undefined);
  const config = loadConfig({
    RAIL_TIMEOUT_MS: '50',
    BILLER_TIMEOUT_MS: '50',
    IDENTITY_BUREAU_TIMEOUT_MS: '50',
    USSD_GATEWAY_TIMEOUT_MS: '50',
    PROVIDER_BREAKER_MIN_CALLS: '1',
    PROVIDER_BREAKER_ERROR_PERCENT: '1',
  });

  it('biller: an unanswered sale is unavailable (settled by a status query); an unsent one failed', async () => {
    const biller = guardBiller({ verify: hang, purchase: hang, queryStatus: hang }, config);
    const request = {} as Parameters<Biller['purchase']>[0];
    assert.equal((await biller.purchase(request)).kind, 'unavailable');
    assert.equal((await biller.purchase(request)).kind, 'failed', 'breaker open: never sent');
    assert.equal((await biller.queryStatus(request)).kind, 'unavailable');
    assert.equal((await biller.verify({} as Parameters<Biller['verify']>[0])).kind, 'unavailable');
  });

  it('rail: an unanswered send or query is unknown; an enquiry unavailable', async () => {
    const rail = guardRail(
      {
        nameEnquiry: hang,
        sendTransfer: hang,
        queryStatus: hang,
        onInboundCredit: () => undefined,
        onTransferReturned: () => undefined,
        onInboundRecalled: () => undefined,
      },
      config,
    );
    const send = await rail.sendTransfer({} as Parameters<Rail['sendTransfer']>[0]);
    assert.deepEqual([send.kind, send.responseCode], ['unknown', null]);
    assert.equal((await rail.queryStatus({ sessionId: 's', bankCode: 'b' })).kind, 'unknown');
    assert.equal(
      (await rail.queryStatus({ sessionId: 's', bankCode: 'b' })).kind,
      'unknown',
      'open',
    );
    const enquiry = await rail.nameEnquiry({ sessionId: 's', bankCode: 'b', accountNumber: '1' });
    assert.equal(enquiry.kind, 'unavailable');
  });

  it('identity bureau and USSD gateway: unavailable, and no OTP sent', async () => {
    const bureau = guardIdentityBureau({ lookup: hang, deliverOtp: hang }, config);
    assert.equal((await bureau.lookup({ type: 'BVN', number: '22212345671' })).kind, 'unavailable');
    assert.equal(await bureau.deliverOtp({} as Parameters<IdentityBureau['deliverOtp']>[0]), false);
    const gateway = guardUssdGateway(
      { issueReference: hang, queryPayment: hang, onPayment: () => undefined },
      config,
    );
    const issued = await gateway.issueReference({
      amountKobo: 100n,
      merchantName: 'M',
      expiresAt: new Date(),
    });
    assert.equal(issued.kind, 'unavailable');
    assert.equal((await gateway.queryPayment('0123456789')).kind, 'unavailable');
  });
});
