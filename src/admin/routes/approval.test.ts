import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frozenAccount, requestUnfreeze, useFourEyesContext } from '../../../test/four-eyes.ts';

describe('GET /admin/approvals/:id', () => {
  const context = useFourEyesContext();

  it('one held request, to any operator (viewer)', async () => {
    const { testApp, ada, chidi } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const response = await testApp.app.inject({
      url: `/admin/approvals/${approvalId}`,
      headers: chidi.headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    const approval = response.json().data;
    assert.equal(approval._id, approvalId);
    assert.equal(approval.status, 'pending');
    assert.equal(approval.requestedByOperatorId, ada.id);
    assert.equal(approval.decidedBy, null);
    assert.equal(approval.body, null);
  });

  it('404 APPROVAL_NOT_FOUND for an unknown id', async () => {
    const response = await context().testApp.app.inject({
      url: '/admin/approvals/apr_nothing',
      headers: context().chidi.headers,
    });
    assert.equal(response.statusCode, 404, response.body);
    assert.equal(response.json().code, 'APPROVAL_NOT_FOUND');
  });
});
