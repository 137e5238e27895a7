import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  accountBalance,
  createVirtualAccount,
  nameEnquiry,
  payVirtualAccount,
  sandboxCredit,
} from '../../../../test/factories.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

/**
 * Paying a virtual account, from another bank (the sandbox NIP network) and intra-bank
 * (POST /transfers): what is accepted lands on the settlement account less the collection fee
 * and its VAT, and what is refused moves nothing.
 */
describe('paying a virtual account', () => {
  const context = useRouteContext();
  const balance = () =>
    accountBalance(context().testApp.app, context().headers, context().ownAccountNumber);
  const newAccount = (extra: Record<string, unknown> = {}) =>
    createVirtualAccount(
      context().testApp.app,
      context().headers,
      context().ownAccountNumber,
      extra,
    );
  const get = async (id: string) =>
    (
      await context().testApp.app.inject({
        method: 'GET',
        url: `/virtual-accounts/${id}`,
        headers: context().headers,
      })
    ).json().data;

  describe('from another bank over NIP', () => {
    it('settles an exact Fixed payment less 0.5% fee and VAT, and marks the account Paid', async () => {
      const account = await newAccount({ amount: 2500 });
      const before = await balance();
      const response = await payVirtualAccount(context().testApp.app, account.accountNumber, 2500, {
        payerName: 'ADA OBI',
      });
      assert.equal(response.statusCode, 201, response.body);
      const payment = response.json().data;
      assert.equal(payment.virtualAccount, account._id);
      assert.equal(payment.amount, 2500);
      assert.equal(payment.fees, 12.5);
      assert.equal(payment.vat, 0.94);
      assert.equal(payment.stampDuty, 0);
      assert.equal(payment.creditAccountNumber, account.accountNumber);
      assert.equal(payment.creditAccountName, account.accountName);
      assert.equal(payment.debitAccountName, 'ADA OBI');
      assert.equal(payment.status, 'Completed');
      assert.equal(payment.externalReference, account.externalReference);
      assert.equal(await balance(), (before ?? 0) + 2500 - 12.5 - 0.94);
      const after = await get(account._id);
      assert.equal(after.status, 'Paid');
      assert.equal(after.amountPaid, 2500);
    });

    it('takes stamp duty on a payment of ₦10,000 or more, and caps the fee at ₦300', async () => {
      const account = await newAccount({ amount: 100_000 });
      const before = await balance();
      const response = await payVirtualAccount(
        context().testApp.app,
        account.accountNumber,
        100_000,
      );
      const payment = response.json().data;
      assert.equal(payment.fees, 300);
      assert.equal(payment.vat, 22.5);
      assert.equal(payment.stampDuty, 50);
      assert.equal(await balance(), (before ?? 0) + 100_000 - 300 - 22.5 - 50);
    });

    it('refuses a second payment (one payment per account) with NIP 07, moving nothing', async () => {
      const account = await newAccount({ amount: 100 });
      assert.equal(
        (await payVirtualAccount(context().testApp.app, account.accountNumber, 100)).statusCode,
        201,
      );
      const before = await balance();
      const again = await payVirtualAccount(context().testApp.app, account.accountNumber, 100);
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.deepEqual(again.json().details, [{ field: 'nip', message: '07 Invalid Account' }]);
      assert.equal(await balance(), before);
    });

    it('applies the amount rule of each amountControl, refusing with NIP 13', async () => {
      const cases = [
        { amountControl: 'Fixed', refused: [99.99, 100.01], accepted: 100 },
        { amountControl: 'UnderPayment', refused: [100.01], accepted: 40 },
        { amountControl: 'OverPayment', refused: [99.99], accepted: 250 },
      ];
      for (const { amountControl, refused, accepted } of cases) {
        const account = await newAccount({ amountControl, amount: 100 });
        for (const amount of refused) {
          const before = await balance();
          const response = await payVirtualAccount(
            context().testApp.app,
            account.accountNumber,
            amount,
          );
          assert.equal(response.statusCode, 400, `${amountControl} ${amount}`);
          assert.equal(response.json().code, 'VIRTUAL_ACCOUNT_AMOUNT_REFUSED');
          assert.deepEqual(response.json().details, [
            { field: 'nip', message: '13 Invalid Amount' },
          ]);
          assert.equal(await balance(), before);
        }
        const response = await payVirtualAccount(
          context().testApp.app,
          account.accountNumber,
          accepted,
        );
        assert.equal(response.statusCode, 201, `${amountControl} ${accepted}: ${response.body}`);
        assert.equal((await get(account._id)).amountPaid, accepted);
      }
    });

    it('refuses a payment the network received after the expiry, even if delivered inside it', async () => {
      const account = await newAccount();
      const before = await balance();
      const response = await payVirtualAccount(context().testApp.app, account.accountNumber, 2500, {
        scenario: 'afterExpiry',
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.match(response.json().message, /expired/);
      assert.equal(await balance(), before);
      assert.equal((await get(account._id)).status, 'Active');
    });

    it('settles a duplicate session once', async () => {
      const account = await newAccount({ amount: 70 });
      const before = await balance();
      const response = await payVirtualAccount(context().testApp.app, account.accountNumber, 70, {
        scenario: 'duplicateSession',
      });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(await balance(), (before ?? 0) + 70 - 0.35 - 0.03);
      const list = await context().testApp.app.inject({
        method: 'GET',
        url: `/virtual-accounts/${account._id}/transaction`,
        headers: context().headers,
      });
      assert.equal(list.json().data.length, 1);
    });

    it('refuses a payment whose settlement account is no longer Active', async () => {
      const { testApp, headers } = context();
      const opened = await testApp.app.inject({
        method: 'POST',
        url: '/accounts',
        headers,
        payload: { suffix: 'Collections' },
      });
      const settlement = opened.json().data as { _id: string; accountNumber: string };
      const account = await createVirtualAccount(testApp.app, headers, settlement.accountNumber);
      // No freeze endpoint yet: the state an operator's freeze will leave.
      await testApp.db.query("UPDATE accounts SET status = 'Frozen' WHERE id = $1", [
        settlement._id,
      ]);
      const response = await payVirtualAccount(testApp.app, account.accountNumber, 2500);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal((await get(account._id)).status, 'Active');
    });

    it('names the virtual account and the payer on the settlement statement', async () => {
      const { testApp, headers, ownAccountId } = context();
      const account = await newAccount({ amount: 31 });
      await payVirtualAccount(testApp.app, account.accountNumber, 31, { payerName: 'KEMI ADE' });
      const statement = await testApp.app.inject({
        method: 'GET',
        url: `/accounts/${ownAccountId}/statement?limit=10`,
        headers,
      });
      const narrations = statement.json().data.map((row: { narration: string }) => row.narration);
      assert.ok(
        narrations.some(
          (text: string) => text.includes(account.accountNumber) && text.includes('KEMI ADE'),
        ),
        JSON.stringify(narrations),
      );
      assert.ok(narrations.some((text: string) => text.startsWith('Collection fee')));
    });
  });

  describe('name enquiry', () => {
    it('answers the name of an Active account and fails for an expired or paid one', async () => {
      const { testApp, otherHeaders } = context();
      const account = await newAccount({ amount: 10, validFor: 120 });
      const found = await nameEnquiry(testApp.app, otherHeaders, '999240', account.accountNumber);
      assert.equal(found.accountName, account.accountName);
      testApp.clock.advanceSeconds(121);
      try {
        await assert.rejects(
          nameEnquiry(testApp.app, otherHeaders, '999240', account.accountNumber),
          /Invalid account/,
        );
        assert.equal((await get(account._id)).status, 'Expired');
      } finally {
        testApp.clock.advanceSeconds(-121);
      }
    });
  });

  describe('intra-bank, by POST /transfers', () => {
    const transfer = async (accountNumber: string, amount: number) => {
      const { testApp, otherHeaders, otherAccountNumber } = context();
      const enquiry = await nameEnquiry(testApp.app, otherHeaders, '999240', accountNumber);
      return testApp.app.inject({
        method: 'POST',
        url: '/transfers',
        headers: otherHeaders,
        payload: {
          nameEnquiryReference: enquiry.sessionId,
          debitAccountNumber: otherAccountNumber,
          beneficiaryBankCode: '999240',
          beneficiaryAccountNumber: accountNumber,
          amount,
          saveBeneficiary: false,
        },
      });
    };
    before(() =>
      sandboxCredit(context().testApp.app, context().otherAccountNumber, 10_000).then(() => {}),
    );
    const payerBalance = () =>
      accountBalance(context().testApp.app, context().otherHeaders, context().otherAccountNumber);

    it('pays it from another client, settled less the fee, with the VA transfer in status', async () => {
      const account = await newAccount({ amount: 400 });
      const [before, payerBefore] = [await balance(), await payerBalance()];
      const response = await transfer(account.accountNumber, 400);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.status, 'Completed');
      assert.equal(await payerBalance(), (payerBefore ?? 0) - 400);
      assert.equal(await balance(), (before ?? 0) + 400 - 2 - 0.15);
      const status = await context().testApp.app.inject({
        method: 'POST',
        url: '/virtual-accounts/status',
        headers: context().headers,
        payload: { sessionId: response.json().data.sessionId },
      });
      assert.equal(status.statusCode, 200, status.body);
      assert.equal(status.json().responseCode, '00');
      assert.equal(status.json().data.virtualAccount, account._id);
      assert.equal(status.json().data.providerChannel, 'TRANSFER');
      assert.equal(status.json().data.fees, 2);
    });

    it('refuses a second transfer or a wrong amount with a 400, debiting nobody', async () => {
      const account = await newAccount({ amount: 50 });
      const payerBefore = await payerBalance();
      const wrong = await transfer(account.accountNumber, 49);
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.equal(wrong.json().code, 'VIRTUAL_ACCOUNT_AMOUNT_REFUSED');
      assert.equal(await payerBalance(), payerBefore);
      assert.equal((await transfer(account.accountNumber, 50)).statusCode, 200);
      const enquiryFails = transfer(account.accountNumber, 50);
      await assert.rejects(enquiryFails, /Invalid account/);
      assert.equal(await payerBalance(), (payerBefore ?? 0) - 50);
    });
  });
});
