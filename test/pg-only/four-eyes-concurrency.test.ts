// PostgreSQL only: four eyes under concurrency. Twenty approvals of one held action at once,
// by four operators through two service graphs on one database (as two server processes
// would): the atomic claim lets exactly one run it; every other is told it was decided (409),
// and the action ran once (one `started` of it by an approver in the audit trail).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { adminHeaders } from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import { operatorWithRoles, type TestOperator } from '../operators.ts';

const UNFREEZE = 'POST /admin/accounts/:accountNumber/unfreeze';

describe('four eyes under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let second: FastifyInstance;

  before(async () => {
    testApp = await buildTestApp({ FOUR_EYES: UNFREEZE }, { poolSize: 30 });
    second = await buildSecondApp(testApp);
  });
  after(async () => {
    await second?.close();
    await testApp?.close();
  });

  async function heldUnfreeze(requester: TestOperator) {
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/admin/clients',
      headers: adminHeaders,
      payload: { name: 'Held Ltd' },
    });
    const accountNumber: string = created.json().data.mainAccount.accountNumber;
    const frozen = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/freeze`,
      headers: adminHeaders,
    });
    assert.equal(frozen.statusCode, 200, frozen.body);
    const requested = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/unfreeze`,
      headers: requester.headers,
    });
    assert.equal(requested.statusCode, 202, requested.body);
    return { accountNumber, approvalId: requested.json().data.approvalId as string };
  }

  it('twenty approvals at once: one runs the action, once; the others get 409', async () => {
    const requester = await operatorWithRoles(testApp, ['support']);
    const approvers = await Promise.all(
      Array.from({ length: 4 }, () => operatorWithRoles(testApp, ['support'])),
    );
    const { accountNumber, approvalId } = await heldUnfreeze(requester);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? testApp.app : second).inject({
          method: 'POST',
          url: `/admin/approvals/${approvalId}/approve`,
          headers: approvers[index % approvers.length]?.headers ?? {},
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    assert.deepEqual(statuses, [200, ...Array<number>(19).fill(409)], JSON.stringify(statuses));
    const winner = answers.find((answer) => answer.statusCode === 200);
    assert.equal(winner?.json().data.status, 'applied');
    const runs = await testApp.db.query<{ actor: string }>(
      `SELECT actor FROM audit_events
        WHERE action = $1 AND outcome = 'started' AND target = $2 ORDER BY id`,
      [`admin.post ${UNFREEZE.slice('POST '.length)}`, accountNumber],
    );
    assert.deepEqual(
      runs.map((run) => run.actor),
      [`operator:${requester.email}`, winner?.json().data.decidedBy],
      'asked once, run once',
    );
    const account = await testApp.app.inject({
      url: `/admin/accounts/${accountNumber}`,
      headers: adminHeaders,
    });
    assert.equal(account.json().data.status, 'Active');
  });
});
