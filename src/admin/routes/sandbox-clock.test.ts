import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET and POST /admin/sandbox/clock', () => {
  const context = useRouteContext();
  const clockCall = (payload?: Record<string, unknown>) =>
    context().testApp.app.inject({
      method: payload === undefined ? 'GET' : 'POST',
      url: '/admin/sandbox/clock',
      headers: adminHeaders,
      ...(payload === undefined ? {} : { payload }),
    });

  describe('200: reads and moves the bank clock', () => {
    it("answers the bank's time, its offset from real time and whether it is frozen", async () => {
      const { testApp } = context();
      const response = await clockCall();
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      assert.equal(data.now, testApp.clock.now().toISOString());
      assert.equal(data.frozen, true, "the harness's clock is frozen");
      assert.equal(typeof data.offsetSeconds, 'number');
    });

    it('moves it forward by an ISO 8601 duration: every service sees the new time', async () => {
      const { testApp } = context();
      const before = testApp.clock.now().getTime();
      const response = await clockCall({ advance: 'PT2H' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(testApp.clock.now().getTime(), before + 7_200_000);
      assert.equal(response.json().data.now, new Date(before + 7_200_000).toISOString());
    });

    it('takes days, weeks and fractions of a second', async () => {
      const { testApp } = context();
      const before = testApp.clock.now().getTime();
      await clockCall({ advance: 'P1DT30M' });
      await clockCall({ advance: 'PT0.25S' });
      assert.equal(testApp.clock.now().getTime(), before + 86_400_000 + 1_800_000 + 250);
    });

    it('unfreezes (real time runs on from where it was) and freezes again', async () => {
      const running = (await clockCall({ freeze: false })).json().data;
      assert.equal(running.frozen, false);
      const frozen = (await clockCall({ freeze: true, advance: 'PT1M' })).json().data;
      assert.equal(frozen.frozen, true);
      assert.ok(Date.parse(frozen.now) >= Date.parse(running.now) + 60_000);
    });
  });

  describe('400: never backwards, never nothing, never absurd', () => {
    const refused: [string, Record<string, unknown>][] = [
      ['a negative duration', { advance: '-PT1H' }],
      ['a zero duration', { advance: 'PT0S' }],
      ['a duration that rounds to zero', { advance: 'PT0.0001S' }],
      ['a duration in months', { advance: 'P1M' }],
      ['a duration in years', { advance: 'P1Y' }],
      ['more than 400 days', { advance: 'P401D' }],
      ['a number of seconds', { advance: '3600' }],
      ['garbage', { advance: 'two hours' }],
    ];
    for (const [label, payload] of refused) {
      it(`refuses ${label} and leaves the clock where it was`, async () => {
        const { testApp } = context();
        const before = testApp.clock.now().getTime();
        const response = await clockCall(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
        assert.equal(response.json().details[0].field, 'advance');
        assert.equal(testApp.clock.now().getTime(), before);
      });
    }

    it('refuses a body with neither advance nor freeze, and a number for advance', async () => {
      assert.equal((await clockCall({})).statusCode, 400);
      assert.equal((await clockCall({ advance: 3600 })).statusCode, 400);
      assert.equal((await clockCall({ freeze: 'yes' })).statusCode, 400);
    });
  });

  describe('403: sandbox only', () => {
    it('production has no test clock: reading and moving it are refused', async () => {
      const answers = await inProduction([
        { method: 'GET', url: '/admin/sandbox/clock' },
        { method: 'POST', url: '/admin/sandbox/clock', payload: { advance: 'PT2H' } },
      ]);
      for (const answer of answers) {
        assert.equal(answer.statusCode, 403, answer.body);
        assert.equal(answer.json().code, 'SANDBOX_ONLY');
      }
    });
  });

  describeAdminAuthGuards(context, () => ({ method: 'GET', url: '/admin/sandbox/clock' }));
  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/clock',
    payload: { advance: 'PT1S' },
  }));
});
