import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { balancesOf, lienEvents, lienReceivable } from '../../../test/liens.ts';
import { assertLedgerInvariants, entryCount } from '../../../test/nip-returns.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('admin liens: GET /admin/accounts/:accountNumber/liens, POST /admin/liens/:id/release', () => {
  const context = useRouteContext();
  const lienIds: string[] = [];

  /**
   * Two credits of ₦500, ₦700 spent, both recalled: the first takes the ₦300 left and liens
   * ₦200, the second liens all ₦500 (credits pay liens first, so a lien comes before a credit).
   */
  before(async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const credits = [
      await sandboxCredit(testApp.app, ownAccountNumber, 500),
      await sandboxCredit(testApp.app, ownAccountNumber, 500),
    ];
    const spent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      amount: 689.25, // ₦10.75 fee and VAT: ₦700 in all
    });
    assert.equal(spent.statusCode, 200, spent.body);
    for (const credit of credits) {
      testApp.clock.advanceSeconds(1);
      const recalled = await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/nip/recalls',
        headers: adminHeaders,
        payload: { sessionId: credit.sessionId },
      });
      assert.equal(recalled.statusCode, 200, recalled.body);
      lienIds.push(recalled.json().data.lien._id);
    }
  });

  const release = (lienId: string, payload: Record<string, unknown> = { reason: 'Goodwill' }) =>
    context().testApp.app.inject({
      method: 'POST',
      url: `/admin/liens/${lienId}/release`,
      headers: { ...adminHeaders, 'x-operator': 'ngozi' },
      payload,
    });

  it("GET 200: the account's liens, oldest first; an unknown number is RECORD_NOT_FOUND", async () => {
    const { testApp, ownAccountNumber } = context();
    const response = await testApp.app.inject({
      url: `/admin/accounts/${ownAccountNumber}/liens`,
      headers: adminHeaders,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response
        .json()
        .data.map((lien: { _id: string; outstanding: number }) => [lien._id, lien.outstanding]),
      [
        [lienIds[0], 200],
        [lienIds[1], 500],
      ],
    );
    const unknown = await testApp.app.inject({
      url: '/admin/accounts/0000000000/liens',
      headers: adminHeaders,
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().code, 'RECORD_NOT_FOUND');
  });

  it('POST 200: released, written off, lockedBalance down, the event sent; asked again, the same', async () => {
    const { testApp, headers, ownAccountId } = context();
    const [first] = lienIds;
    assert.ok(first);
    const response = await release(first);
    assert.equal(response.statusCode, 200, response.body);
    const lien = response.json().data;
    assert.deepEqual([lien.status, lien.outstanding, lien.writtenOff], ['released', 0, 200]);
    assert.deepEqual(await balancesOf(testApp, headers, ownAccountId), {
      available: 0,
      book: 0,
      locked: 50_000,
    });
    assert.equal(await lienReceivable(testApp.db), -50_000n);
    assert.deepEqual(
      (await lienEvents(testApp.db, first)).map((event) => [event.status, event.writtenOff]),
      [
        ['active', 0],
        ['released', 200],
      ],
    );
    const rows = await testApp.db.query<{ released_by: string }>(
      'SELECT released_by FROM ledger_liens WHERE id = $1',
      [first],
    );
    assert.equal(rows[0]?.released_by, 'break-glass:ngozi');
    const entries = await entryCount(testApp.db);
    const again = await release(first);
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json().data, lien);
    assert.equal(await entryCount(testApp.db), entries);
    await assertLedgerInvariants(testApp.db);
  });

  it('POST 400: a lien paid in full (LIEN_NOT_ACTIVE), an unknown one, no reason', async () => {
    const { testApp, ownAccountNumber } = context();
    const [, second] = lienIds;
    assert.ok(second);
    await sandboxCredit(testApp.app, ownAccountNumber, 500);
    const paid = await release(second);
    assert.equal(paid.statusCode, 400, paid.body);
    assert.equal(paid.json().code, 'LIEN_NOT_ACTIVE');
    const unknown = await release('ffffffffffffffffffffffff');
    assert.equal(unknown.json().code, 'RECORD_NOT_FOUND');
    const noReason = await release(second, {});
    assert.equal(noReason.json().code, 'VALIDATION_ERROR');
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/liens/ffffffffffffffffffffffff/release',
    payload: { reason: 'Goodwill' },
  }));
});
