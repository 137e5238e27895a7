/**
 * Everything time-bound follows the sandbox's one clock, moved through the admin API and never
 * waited for: on a bank composed as the server composes it (a running test clock, real time for
 * client assertions, the background workers started on polls a minute apart, so only a clock
 * advance makes them look again within a test).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  adminHeaders,
  createUssdReference,
  createVirtualAccount,
  dialUssd,
  openCheckoutSession,
  payVirtualAccount,
  sandboxCredit,
  sendTransfer,
  signAssertion,
  VAS,
  vasPurchase,
} from '../factories.ts';
import {
  advanceClock,
  buildSandboxApp,
  type SandboxApp,
  signInToSandbox,
  tokenFor,
} from '../sandbox-controls.ts';
import { WebhookReceiver } from '../webhook-receiver.ts';

type Headers = Record<string, string>;

describe('the sandbox clock: what expires and comes due when it moves', () => {
  let sandbox: SandboxApp;
  let signedIn: Awaited<ReturnType<typeof signInToSandbox>>;
  before(async () => {
    // Webhooks to the examples' merchant URLs fail fast instead of holding a worker's round.
    sandbox = await buildSandboxApp({ WEBHOOK_TIMEOUT_MS: '1000' });
    signedIn = await signInToSandbox(sandbox, 'Clockwork Ltd');
    await sandboxCredit(sandbox.app, signedIn.client.mainAccountNumber, 100_000);
  });
  after(() => sandbox?.close());

  /** A fresh access token: a big advance expires the one before. */
  async function headers(): Promise<Headers> {
    const tokens = await tokenFor(sandbox, signedIn.client);
    return {
      authorization: `Bearer ${tokens.access_token}`,
      clientid: signedIn.client.ibsClientId,
    };
  }
  const get = async (url: string) =>
    sandbox.app.inject({ method: 'GET', url, headers: await headers() });

  it('a virtual account expires, and a payment after it is refused', async () => {
    const account = await createVirtualAccount(
      sandbox.app,
      await headers(),
      signedIn.client.mainAccountNumber,
    );
    await advanceClock(sandbox.app, 'PT14M');
    assert.equal((await get(`/virtual-accounts/${account._id}`)).json().data.status, 'Active');
    await advanceClock(sandbox.app, 'PT1M1S');
    assert.equal((await get(`/virtual-accounts/${account._id}`)).json().data.status, 'Expired');
    const paid = await payVirtualAccount(sandbox.app, account.accountNumber, 2500);
    assert.equal(paid.statusCode, 400, paid.body);
    assert.match(paid.json().message, /expired/);
  });

  it('a USSD reference expires', async () => {
    const created = await createUssdReference(
      sandbox.app,
      await headers(),
      signedIn.client.mainAccountNumber,
    );
    await advanceClock(sandbox.app, 'PT15M');
    assert.equal((await get(`/ussd-payment/${created.reference}`)).json().data.status, 'Expired');
  });

  it('a checkout session expires', async () => {
    const session = await openCheckoutSession(
      sandbox.app,
      {
        oauthClientId: signedIn.client.oauthClientId,
        accountNumber: signedIn.client.mainAccountNumber,
      },
      'CLOCK-1',
      { remoteAddress: '10.40.0.1' },
    );
    const page = async () =>
      (
        await sandbox.app.inject({
          method: 'GET',
          url: `/checkout/sessions/${session.id}`,
          headers: { 'x-checkout-token': session.token },
        })
      ).json().data.status;
    assert.equal(await page(), 'Pending');
    await advanceClock(sandbox.app, 'PT1H');
    assert.equal(await page(), 'Expired');
  });

  it('an access token expires; a client still signs in with an assertion signed at real time', async () => {
    const before = await headers();
    await advanceClock(sandbox.app, `PT${sandbox.config.accessTokenTtlSeconds + 1}S`);
    assert.equal(
      (await sandbox.app.inject({ method: 'GET', url: '/accounts', headers: before })).statusCode,
      401,
    );
    // The client's own clock never moved: its assertion is judged on real time.
    assert.equal((await get('/accounts')).statusCode, 200);
  });

  it('a refresh token expires', async () => {
    const { refresh_token } = await tokenFor(sandbox, signedIn.client);
    const refresh = async () =>
      sandbox.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: {
          grant_type: 'refresh_token',
          client_id: signedIn.client.oauthClientId,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: await signAssertion(signedIn.client, { now: new Date() }),
          refresh_token,
        },
      });
    await advanceClock(sandbox.app, `PT${sandbox.config.refreshTokenTtlSeconds + 1}S`);
    const response = await refresh();
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().error, 'invalid_grant');
  });

  it('a NIP status query comes due and its worker settles the transfer at once', async () => {
    const queued = await sandbox.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/next-outcome',
      headers: adminHeaders,
      payload: { responseCode: '97' },
    });
    assert.equal(queued.statusCode, 200, queued.body);
    const placed = await sendTransfer(sandbox.app, await headers(), {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 100,
      narration: 'clock',
    });
    assert.equal(placed.json().data.status, 'Processing', placed.body);
    const status = async () =>
      (
        await sandbox.app.inject({
          method: 'POST',
          url: '/transfers/tqs',
          headers: await headers(),
          payload: { sessionId: placed.json().data.sessionId },
        })
      ).json().data.status;
    await advanceClock(sandbox.app, `PT${sandbox.config.transfers.statusQueryScheduleSeconds[0]}S`);
    assert.equal(await status(), 'Completed');
  });

  it('a VAS status query comes due and its worker settles the purchase at once', async () => {
    const bought = await vasPurchase(sandbox.app, await headers(), 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount: 100,
      debitAccountNumber: signedIn.client.mainAccountNumber,
      phoneNumber: '08031231111',
    });
    assert.equal(bought.json().data.status, 'pending', bought.body);
    await advanceClock(sandbox.app, `PT${sandbox.config.vas.statusQueryScheduleSeconds[0]}S`);
    const found = await get(`/vas/transaction/${bought.json().data.id}`);
    assert.equal(found.json().data.status, 'successful');
  });

  it('a USSD status query comes due and finds the payment whose notice was lost', async () => {
    const created = await createUssdReference(
      sandbox.app,
      await headers(),
      signedIn.client.mainAccountNumber,
      { amount: '1500.52' },
    );
    const dialled = await dialUssd(sandbox.app, created.reference);
    assert.equal(dialled.json().data.outcome, 'noticeLost', dialled.body);
    await advanceClock(sandbox.app, `PT${sandbox.config.ussd.statusQueryScheduleSeconds[0]}S`);
    assert.equal((await get(`/ussd-payment/${created.reference}`)).json().data.status, 'Paid');
  });
});

describe('the sandbox clock: a webhook retry comes due', () => {
  let sandbox: SandboxApp;
  const receiver = new WebhookReceiver();
  before(async () => {
    sandbox = await buildSandboxApp();
    await receiver.start();
  });
  after(async () => {
    await sandbox?.close();
    await receiver.stop();
  });

  it('is sent again as soon as the clock passes its time, and the inbox shows both attempts', async () => {
    const { client } = await signInToSandbox(sandbox, 'Hooked Ltd');
    const set = await sandbox.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/webhook`,
      headers: adminHeaders,
      payload: { url: receiver.url() },
    });
    assert.equal(set.statusCode, 200, set.body);
    receiver.mode = 'error';
    await sandboxCredit(sandbox.app, client.mainAccountNumber, 500);
    await advanceClock(sandbox.app, 'PT1S');
    assert.equal(receiver.requests.length, 1, 'the advance woke the delivery worker');
    receiver.mode = 'ok';
    const firstRetry = sandbox.config.webhooks.retryScheduleSeconds[0] ?? 0;
    await advanceClock(sandbox.app, `PT${firstRetry - 2}S`);
    assert.equal(receiver.requests.length, 1, 'not due yet');
    await advanceClock(sandbox.app, 'PT2S');
    assert.equal(receiver.requests.length, 2);
    const inbox = await sandbox.app.inject({
      method: 'GET',
      url: `/admin/sandbox/webhooks?clientId=${client.ibsClientId}`,
      headers: adminHeaders,
    });
    assert.deepEqual(
      inbox
        .json()
        .data.map((entry: { attempt: number; responseStatus: number }) => [
          entry.attempt,
          entry.responseStatus,
        ]),
      [
        [2, 200],
        [1, 500],
      ],
    );
  });
});

describe('the sandbox clock: the daily limits roll over at midnight in Lagos', () => {
  let sandbox: SandboxApp;
  let headers: Headers;
  let accountNumber: string;
  before(async () => {
    sandbox = await buildSandboxApp({
      TRANSFER_LIMIT_DAILY_NAIRA: '400',
      TRANSFER_LIMIT_PER_TRANSACTION_NAIRA: '300',
    });
    // 23:30 in Lagos (UTC+1), running.
    sandbox.clock.reset({ startAt: new Date('2026-03-02T22:30:00.000Z') });
    const signedIn = await signInToSandbox(sandbox, 'Late Night Ltd');
    headers = signedIn.headers;
    accountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(sandbox.app, accountNumber, 10_000);
  });
  after(() => sandbox?.close());

  const send = (amount: number) =>
    sendTransfer(sandbox.app, headers, {
      debitAccountNumber: accountNumber,
      amount,
      narration: 'n',
    });

  it("counts until 24:00 Lagos time (23:00 UTC), then starts the next day's total", async () => {
    assert.equal((await send(300)).statusCode, 200);
    const refused = await send(200);
    assert.equal(refused.statusCode, 402, refused.body);
    assert.equal(refused.json().code, 'TRANSFER_LIMIT_EXCEEDED');
    await advanceClock(sandbox.app, 'PT29M');
    assert.equal((await send(200)).statusCode, 402, '23:59 in Lagos: the same day');
    await advanceClock(sandbox.app, 'PT1M');
    const nextDay = await send(200);
    assert.equal(nextDay.statusCode, 200, `00:00 in Lagos, still 23:00 UTC: ${nextDay.body}`);
  });
});
