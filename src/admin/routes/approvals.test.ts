import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decide,
  frozenAccount,
  requestUnfreeze,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';

describe('GET /admin/approvals', () => {
  const context = useFourEyesContext();

  const list = (query: string) =>
    context().testApp.app.inject({
      url: `/admin/approvals${query}`,
      headers: context().chidi.headers,
    });

  it('lists the held requests newest first, by status: the queue is status=pending', async () => {
    const { ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const first = await requestUnfreeze(context(), accountNumber, ada);
    // The test clock stands still: a second apart, the two have an order.
    await context().testApp.clock.advance(1_000);
    const second = await requestUnfreeze(context(), accountNumber, ada);
    await decide(context(), first, 'reject', bola.headers);

    const all = await list('');
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual(
      all.json().data.map((each: { _id: string; status: string }) => [each._id, each.status]),
      [
        [second, 'pending'],
        [first, 'rejected'],
      ],
    );
    const pending = await list('?status=pending');
    assert.deepEqual(
      pending.json().data.map((each: { _id: string }) => each._id),
      [second],
    );
    const [held] = pending.json().data;
    assert.equal(held.action, 'POST /admin/accounts/:accountNumber/unfreeze');
    assert.equal(held.role, 'support');
    assert.deepEqual(held.params, { accountNumber });
    assert.equal(held.requestedBy, `operator:${ada.email}`);
    assert.equal(pending.json().pagination.total, 1);
  });

  it('an unknown status: 400 VALIDATION_ERROR', async () => {
    const response = await list('?status=maybe');
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'VALIDATION_ERROR');
  });
});
