import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import {
  accountStatus,
  decide,
  frozenAccount,
  requestUnfreeze,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';

describe('POST /admin/approvals/:id/reject', () => {
  const context = useFourEyesContext();

  it('another operator with the role rejects: the action never runs, and both are named', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const rejected = await decide(context(), approvalId, 'reject', bola.headers);
    assert.equal(rejected.statusCode, 200, rejected.body);
    const approval = rejected.json().data;
    assert.equal(approval.status, 'rejected');
    assert.equal(approval.decidedBy, `operator:${bola.email}`);
    assert.equal(approval.result, null);
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
    const audit = await testApp.app.inject({
      url: `/admin/audit-events?target=${approvalId}`,
      headers: adminHeaders,
    });
    const event = audit
      .json()
      .data.find((each: { action: string }) => each.action === 'approval.rejected');
    assert.equal(event?.actor, `operator:${bola.email}`);
    assert.equal(event?.details.requestedBy, `operator:${ada.email}`);
  });

  it('the requester withdraws their own request, even without the role to decide others', async () => {
    const { chidi } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, chidi);
    const withdrawn = await decide(context(), approvalId, 'reject', chidi.headers);
    assert.equal(withdrawn.statusCode, 200, withdrawn.body);
    assert.equal(withdrawn.json().data.status, 'rejected');
  });

  it('break-glass cannot reject (403), a decided request cannot be rejected again (409)', async () => {
    const { ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const breakGlass = await decide(context(), approvalId, 'reject', adminHeaders);
    assert.equal(breakGlass.statusCode, 403, breakGlass.body);
    assert.equal(breakGlass.json().code, 'APPROVAL_NEEDS_OPERATOR');
    assert.equal((await decide(context(), approvalId, 'approve', bola.headers)).statusCode, 200);
    const again = await decide(context(), approvalId, 'reject', ada.headers);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'APPROVAL_NOT_PENDING');
  });
});
