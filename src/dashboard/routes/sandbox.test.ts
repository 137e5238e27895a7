/**
 * The dashboard's sandbox page: the bank's test clock, the faults and the NIP simulator's next
 * outcome, over the admin API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  adminHeaders,
  issueTokens,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: the sandbox page', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Rehearsal Ltd');
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10_000);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  const page = async () => (await browser.get('/dashboard/sandbox')).body;

  it('shows the clock, advances it by a duration, freezes and unfreezes it', async () => {
    const start = testApp.clock.now().getTime();
    const shown = (at: number) => `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')}Z`;
    assert.match(await page(), new RegExp(`${shown(start)}</strong> · frozen`));
    const advanced = await browser.post('/dashboard/sandbox/clock', { advance: 'PT2H' });
    assert.equal(advanced.statusCode, 303);
    assert.equal(testApp.clock.now().getTime(), start + 7_200_000);
    assert.match(await page(), new RegExp(`clock now reads ${shown(start + 7_200_000)}`));
    await browser.post('/dashboard/sandbox/clock', { freeze: 'false' });
    assert.match(await page(), /· running ·/);
    await browser.post('/dashboard/sandbox/clock', { freeze: 'true' });
    assert.match(await page(), /· frozen ·/);
  });

  it('shows a refused duration as the admin API words it, and the clock stays', async () => {
    const before = testApp.clock.now().getTime();
    await browser.post('/dashboard/sandbox/clock', { advance: '-PT1H' });
    assert.match(await page(), /notice-error[^>]*>[^<]*ISO 8601 duration[^<]*\(HTTP 400\)/);
    assert.equal(testApp.clock.now().getTime(), before);
  });

  it('adds a fault (the client’s next transfer answers 504), lists it and clears it', async () => {
    const added = await browser.post('/dashboard/sandbox/faults', {
      clientId: signedIn.client.ibsClientId,
      route: 'POST /transfers',
      fault: 'commit-then-504',
      times: '2',
    });
    assert.equal(added.statusCode, 303);
    const listed = await page();
    assert.match(listed, /Rehearsal Ltd/);
    assert.match(listed, /commit-then-504/);
    assert.match(listed, /2 of 2/);
    // The clock moved on two hours: a fresh token.
    const tokens = await issueTokens(testApp, signedIn.client);
    const headers = { ...signedIn.headers, authorization: `Bearer ${tokens.access_token}` };
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 100,
      narration: 'rehearsal',
    });
    assert.equal(sent.statusCode, 504, sent.body);
    assert.match(await page(), /1 of 2/);

    const faults = await testApp.app.inject({
      method: 'GET',
      url: '/admin/sandbox/faults',
      headers: adminHeaders,
    });
    const [fault] = faults.json().data;
    await browser.post(`/dashboard/sandbox/faults/${fault._id}/clear`);
    assert.match(await page(), /No fault is waiting/);
  });

  it('clears every fault at once; a bad route is refused with the reason', async () => {
    for (const route of ['GET /accounts', 'POST /transfers/tqs']) {
      await browser.post('/dashboard/sandbox/faults', {
        clientId: signedIn.client.ibsClientId,
        route,
        fault: '503',
        times: '1',
      });
    }
    assert.match(await page(), /Clear every fault/);
    await browser.post('/dashboard/sandbox/faults/clear');
    assert.match(await page(), /No fault is waiting/);
    await browser.post('/dashboard/sandbox/faults', {
      clientId: signedIn.client.ibsClientId,
      route: 'POST /nowhere',
      fault: '503',
      times: '1',
    });
    assert.match(await page(), /not a route that takes an access token/);
  });

  it('queues the NIP simulator’s next outcome: the next transfer fails with it', async () => {
    await browser.get('/dashboard/sandbox');
    const queued = await browser.post('/dashboard/sandbox/nip-next-outcome', {
      responseCode: '51',
    });
    assert.equal(queued.statusCode, 303);
    assert.match(await page(), /The next NIP transfer will be answered 51\./);
    const tokens = await issueTokens(testApp, signedIn.client);
    const sent = await sendTransfer(
      testApp.app,
      { ...signedIn.headers, authorization: `Bearer ${tokens.access_token}` },
      {
        debitAccountNumber: signedIn.client.mainAccountNumber,
        amount: 200,
        narration: 'will fail',
        paymentReference: 'DASH-51',
      },
    );
    assert.equal(sent.json().data.status, 'Failed', sent.body);
    assert.equal(sent.json().data.responseCode, '51');
  });

  it('an outcome the simulator does not know is refused with the reason', async () => {
    await browser.post('/dashboard/sandbox/nip-next-outcome', { responseCode: '42' });
    assert.match(await page(), /notice-error[^>]*>[^<]*\(HTTP 400\)/);
  });
});
