import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  sandboxCredit,
  sendTransfer,
} from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/accounts/:accountNumber/freeze and /unfreeze', () => {
  const context = useRouteContext();
  const act = (accountNumber: string, action: 'freeze' | 'unfreeze') =>
    context().testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/${action}`,
      headers: adminHeaders,
    });
  const balance = () =>
    accountBalance(context().testApp.app, context().headers, context().ownAccountNumber);
  const send = () =>
    sendTransfer(context().testApp.app, context().headers, {
      debitAccountNumber: context().ownAccountNumber,
      amount: 100,
    });

  before(() => sandboxCredit(context().testApp.app, context().ownAccountNumber, 10_000));

  it('a frozen account takes no debit and no credit (402), and moves again once unfrozen', async () => {
    const { ownAccountNumber, testApp } = context();
    const frozen = await act(ownAccountNumber, 'freeze');
    assert.equal(frozen.statusCode, 200, frozen.body);
    assert.equal(frozen.json().message, 'Account frozen successfully.');
    assert.equal(frozen.json().data.status, 'Frozen');
    const before = await balance();
    const debit = await send();
    assert.equal(debit.statusCode, 402, debit.body);
    assert.equal(debit.json().code, 'ACCOUNT_NOT_ACTIVE');
    const credit = await testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/credits',
      headers: adminHeaders,
      payload: { accountNumber: ownAccountNumber, amount: 50 },
    });
    assert.equal(credit.statusCode, 402, credit.body);
    assert.equal(await balance(), before);
    // Freezing again changes nothing.
    assert.equal((await act(ownAccountNumber, 'freeze')).json().data.status, 'Frozen');
    const unfrozen = await act(ownAccountNumber, 'unfreeze');
    assert.equal(unfrozen.statusCode, 200, unfrozen.body);
    assert.equal(unfrozen.json().data.status, 'Active');
    assert.equal((await send()).statusCode, 200);
  });

  it('400 "Unable to locate record" for a number that is no account, 400 for one that is no number', async () => {
    const unknown = await act('0000000000', 'freeze');
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Unable to locate record');
    assert.equal((await act('12345', 'freeze')).statusCode, 400);
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: `/admin/accounts/${context().ownAccountNumber}/unfreeze`,
  }));
});
