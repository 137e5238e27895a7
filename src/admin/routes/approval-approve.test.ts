import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import {
  accountStatus,
  decide,
  frozenAccount,
  requestUnfreeze,
  transferAcross,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';
import { entryCount } from '../../../test/nip-returns.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('POST /admin/approvals/:id/approve', () => {
  const context = useFourEyesContext();

  const transferStatus = async (transferId: string) => {
    const rows = await context().testApp.db.query<{ status: string }>(
      'SELECT status FROM transfers WHERE id = $1',
      [transferId],
    );
    return rows[0]?.status;
  };

  it('a reversal requested by A is held (202) and not applied until B approves; then applied once, as B', async () => {
    const { testApp, ada, bola } = context();
    const sent = await transferAcross(context(), 300);
    const entries = await entryCount(testApp.db);
    const requested = await testApp.app.inject({
      method: 'POST',
      url: `/admin/transfers/${sent._id}/reversal`,
      headers: ada.headers,
      payload: { reason: 'Wrong account' },
    });
    assert.equal(requested.statusCode, 202, requested.body);
    const held = requested.json();
    assert.equal(held.statusCode, 202);
    assert.match(
      held.message,
      /^Sent for approval \(apr_[\w-]+\): another operator with the finance role/,
    );
    assert.deepEqual(Object.keys(held.data).sort(), [
      'action',
      'approvalId',
      'expiresAt',
      'status',
    ]);
    assert.equal(held.data.status, 'pending');
    assert.equal(held.data.action, 'POST /admin/transfers/:id/reversal');
    assert.equal(await transferStatus(sent._id), 'Completed', 'nothing is reversed yet');
    assert.equal(await entryCount(testApp.db), entries, 'no money moved');

    const approved = await decide(context(), held.data.approvalId, 'approve', bola.headers);
    assert.equal(approved.statusCode, 200, approved.body);
    const approval = approved.json().data;
    assert.equal(approval.status, 'applied');
    assert.equal(approval.requestedBy, `operator:${ada.email}`);
    assert.equal(approval.decidedBy, `operator:${bola.email}`);
    assert.deepEqual(approval.body, { reason: 'Wrong account' });
    assert.equal(approval.result.statusCode, 200);
    assert.equal(approval.result.answer.data.outward._id, sent._id);
    assert.equal(await transferStatus(sent._id), 'Reversed');

    const again = await decide(context(), held.data.approvalId, 'approve', bola.headers);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'APPROVAL_NOT_PENDING');

    const audit = await testApp.app.inject({
      url: `/admin/audit-events?target=${held.data.approvalId}`,
      headers: adminHeaders,
    });
    const approvedEvent = audit
      .json()
      .data.find((event: { action: string }) => event.action === 'approval.approved');
    assert.equal(approvedEvent?.actor, `operator:${bola.email}`);
    assert.equal(approvedEvent?.details.requestedBy, `operator:${ada.email}`);
    assert.equal(approvedEvent?.details.approvalId, held.data.approvalId);
    const reversalEvents = await testApp.app.inject({
      url: `/admin/audit-events?target=${sent._id}`,
      headers: adminHeaders,
    });
    assert.deepEqual(
      reversalEvents
        .json()
        .data.map((event: { actor: string; outcome: string }) => [event.actor, event.outcome]),
      [
        [`operator:${bola.email}`, '200'],
        [`operator:${bola.email}`, 'started'],
        [`operator:${ada.email}`, '202'],
        [`operator:${ada.email}`, 'started'],
      ],
    );
  });

  it('the requester approving their own request: 403 APPROVAL_OWN_REQUEST, still pending', async () => {
    const { ada } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const refused = await decide(context(), approvalId, 'approve', ada.headers);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'APPROVAL_OWN_REQUEST');
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
    await decide(context(), approvalId, 'reject', ada.headers);
  });

  it('break-glass approving: 403 APPROVAL_NEEDS_OPERATOR (it is nobody in particular)', async () => {
    const { ada } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const refused = await decide(context(), approvalId, 'approve', adminHeaders);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'APPROVAL_NEEDS_OPERATOR');
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
    await decide(context(), approvalId, 'reject', ada.headers);
  });

  it("a break-glass request is held too, and any operator with the action's role approves it", async () => {
    const { testApp, bola } = context();
    const accountNumber = await frozenAccount(context());
    const requested = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/unfreeze`,
      headers: adminHeaders,
    });
    assert.equal(requested.statusCode, 202, requested.body);
    const approved = await decide(
      context(),
      requested.json().data.approvalId,
      'approve',
      bola.headers,
    );
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal(approved.json().data.requestedByOperatorId, null);
    assert.equal(await accountStatus(context(), accountNumber), 'Active');
  });

  it("an operator without the action's role: 403 ROLE_REQUIRED", async () => {
    const { testApp, ada, chidi } = context();
    const sent = await transferAcross(context(), 10);
    const requested = await testApp.app.inject({
      method: 'POST',
      url: `/admin/transfers/${sent._id}/reversal`,
      headers: ada.headers,
      payload: { reason: 'Wrong account' },
    });
    const refused = await decide(
      context(),
      requested.json().data.approvalId,
      'approve',
      chidi.headers,
    );
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'ROLE_REQUIRED');
    assert.equal(await transferStatus(sent._id), 'Completed');
  });

  it('an expired request cannot be approved: 409 APPROVAL_EXPIRED, and reads as expired', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    // The bank's clock: APPROVAL_TTL_SECONDS (a day by default) and a second.
    await testApp.clock.advance(86_401_000);
    const refused = await decide(context(), approvalId, 'approve', bola.headers);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'APPROVAL_EXPIRED');
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
    const read = await testApp.app.inject({
      url: `/admin/approvals/${approvalId}`,
      headers: bola.headers,
    });
    assert.equal(read.json().data.status, 'expired');
  });

  it('a rejected request cannot be approved: 409 APPROVAL_NOT_PENDING', async () => {
    const { ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const rejected = await decide(context(), approvalId, 'reject', bola.headers);
    assert.equal(rejected.statusCode, 200, rejected.body);
    const refused = await decide(context(), approvalId, 'approve', bola.headers);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'APPROVAL_NOT_PENDING');
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
  });

  it('an action the approval ran and its route refused: recorded as failed, with its answer', async () => {
    const { testApp, ada, bola } = context();
    const requested = await testApp.app.inject({
      method: 'POST',
      url: '/admin/transfers/64b7f0c2a1b2c3d4e5f60718/reversal',
      headers: ada.headers,
      payload: { reason: 'No such transfer' },
    });
    assert.equal(requested.statusCode, 202, requested.body);
    const approved = await decide(
      context(),
      requested.json().data.approvalId,
      'approve',
      bola.headers,
    );
    assert.equal(approved.statusCode, 200, approved.body);
    const approval = approved.json().data;
    assert.equal(approval.status, 'failed');
    assert.equal(approval.result.statusCode, 400);
    assert.equal(approval.result.answer.code, 'RECORD_NOT_FOUND');
  });

  it('404 APPROVAL_NOT_FOUND for an unknown id', async () => {
    const response = await decide(context(), 'apr_unknown', 'approve', context().bola.headers);
    assert.equal(response.statusCode, 404, response.body);
    assert.equal(response.json().code, 'APPROVAL_NOT_FOUND');
  });
});

describe('POST /admin/approvals/:id/approve: an action that answers a secret', () => {
  const context = useFourEyesContext('POST /admin/operators/:id/setup-link');

  it('the approver alone gets the secret; the stored result, read by any operator, has it redacted', async () => {
    const { testApp } = context();
    const asker = await operatorWithRoles(testApp, ['admin']);
    const approver = await operatorWithRoles(testApp, ['admin']);
    const viewer = await operatorWithRoles(testApp, ['viewer']);
    const newcomer = await operatorWithRoles(testApp, ['support']);
    const requested = await testApp.app.inject({
      method: 'POST',
      url: `/admin/operators/${newcomer.id}/setup-link`,
      headers: asker.headers,
    });
    assert.equal(requested.statusCode, 202, requested.body);
    const approvalId: string = requested.json().data.approvalId;
    const approved = await decide(context(), approvalId, 'approve', approver.headers);
    assert.equal(approved.statusCode, 200, approved.body);
    const answer = approved.json().data.result.answer;
    assert.equal(approved.json().data.result.statusCode, 201);
    const link: string = answer.data.url;
    assert.match(link, /\/dashboard\/setup\//);
    const read = await testApp.app.inject({
      url: `/admin/approvals/${approvalId}`,
      headers: viewer.headers,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().data.result.answer.data.url, '[redacted]');
    const stored = await testApp.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM approval_requests
        WHERE result_answer::text LIKE '%' || $1 || '%'`,
      [link.slice(link.lastIndexOf('/') + 1)],
    );
    assert.equal(stored[0]?.n, 0);
  });
});
