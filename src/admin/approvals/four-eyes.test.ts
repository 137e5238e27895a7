import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import {
  accountStatus,
  frozenAccount,
  requestUnfreeze,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';
import { buildTestApp } from '../../../test/harness.ts';
import { FOUR_EYES_PRODUCTION_DEFAULT } from '../../config/operators-config.ts';
import { adminContract } from '../contract/index.ts';
import { APPROVAL_EXECUTION_HEADER, fourEyesRoutes } from './index.ts';

describe('four eyes: which actions are held', () => {
  it('FOUR_EYES naming no admin action, a read, or a decision itself: refused at start', () => {
    for (const key of [
      'POST /admin/transfers/:id/reverse',
      'POST /admin/approvals/:id/approve',
      'POST /admin/sandbox/bulk-transfers',
    ]) {
      assert.throws(() => fourEyesRoutes({ routes: [key] }), /FOUR_EYES/, key);
    }
  });

  it("the production default: each an action of the admin contract, with the contract's role", () => {
    const routes = fourEyesRoutes({ routes: FOUR_EYES_PRODUCTION_DEFAULT });
    for (const key of FOUR_EYES_PRODUCTION_DEFAULT) {
      assert.equal(routes.get(key), adminContract[key as keyof typeof adminContract].role, key);
    }
    assert.equal(routes.get('POST /admin/transfers/:id/reversal'), 'finance');
  });

  it('the sandbox by default holds nothing: an unfreeze runs at once', async () => {
    const testApp = await buildTestApp();
    try {
      const created = await testApp.app.inject({
        method: 'POST',
        url: '/admin/clients',
        headers: adminHeaders,
        payload: { name: 'Plain Ltd' },
      });
      const accountNumber = created.json().data.mainAccount.accountNumber;
      for (const action of ['freeze', 'unfreeze']) {
        const response = await testApp.app.inject({
          method: 'POST',
          url: `/admin/accounts/${accountNumber}/${action}`,
          headers: adminHeaders,
        });
        assert.equal(response.statusCode, 200, response.body);
      }
    } finally {
      await testApp.close();
    }
  });
});

describe('four eyes: the execution header', () => {
  const context = useFourEyesContext();

  it('sent from outside, made up or replayed: 403 APPROVAL_EXECUTION_REFUSED, nothing runs', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    for (const value of [`${approvalId}.guessed-secret`, approvalId, '.', 'x'.repeat(80)]) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/admin/accounts/${accountNumber}/unfreeze`,
        headers: { ...bola.headers, [APPROVAL_EXECUTION_HEADER]: value },
      });
      assert.equal(response.statusCode, 403, response.body);
      assert.equal(response.json().code, 'APPROVAL_EXECUTION_REFUSED');
    }
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
  });

  it('the approval publishes a 202 answer for the held routes in the OpenAPI document', async () => {
    const document = await context().testApp.app.inject({ url: '/openapi.json' });
    const responses =
      document.json().paths['/admin/accounts/{accountNumber}/unfreeze'].post.responses;
    assert.ok(responses['202'], 'a held action documents its 202');
    const freeze = document.json().paths['/admin/accounts/{accountNumber}/freeze'].post.responses;
    assert.equal(freeze['202'], undefined, 'an action not held does not');
  });
});
