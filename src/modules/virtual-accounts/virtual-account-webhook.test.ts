import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, payVirtualAccount } from '../../../test/factories.ts';
import { useRouteContext } from '../../../test/shared-route-tests.ts';

/** The published virtualAccount.transfer example (ibs-api-reference §3.4): names and JSON types. */
const PUBLISHED_EXAMPLE = {
  _id: 'string',
  client: 'string',
  virtualAccount: 'string',
  sessionId: 'string',
  nameEnquiryReference: 'string',
  paymentReference: 'string',
  isReversed: 'boolean',
  provider: 'string',
  providerChannel: 'string',
  providerChannelCode: 'string',
  destinationInstitutionCode: 'string',
  creditAccountName: 'string',
  creditAccountNumber: 'string',
  creditBankVerificationNumber: 'null',
  creditKYCLevel: 'string',
  debitAccountName: 'string',
  debitAccountNumber: 'string',
  debitBankVerificationNumber: 'null',
  debitKYCLevel: 'string',
  transactionLocation: 'string',
  narration: 'string',
  amount: 'number',
  fees: 'number',
  vat: 'number',
  stampDuty: 'number',
  responseCode: 'string',
  responseMessage: 'string',
  status: 'string',
  isDeleted: 'boolean',
  createdAt: 'string',
  updatedAt: 'string',
} as const;

const typeOf = (value: unknown) => (value === null ? 'null' : typeof value);

describe('the virtualAccount.transfer webhook', () => {
  const context = useRouteContext();

  it('goes to the account callbackUrl with every published field, in its JSON type', async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const account = await createVirtualAccount(testApp.app, headers, ownAccountNumber, {
      amount: 1001,
    });
    const payment = (await payVirtualAccount(testApp.app, account.accountNumber, 1001)).json().data;
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=virtualAccount.transfer&limit=100',
      headers,
    });
    assert.equal(list.statusCode, 200, list.body);
    const deliveries = list.json().data as {
      callbackUrl: string | null;
      payload: { type: string; data: Record<string, unknown> };
    }[];
    const delivery = deliveries.find((item) => item.payload.data._id === payment._id);
    assert.ok(delivery, list.body);
    assert.equal(delivery.payload.type, 'virtualAccount.transfer');
    assert.equal(delivery.callbackUrl, 'https://merchant.example.com/hooks/va');
    const data = delivery.payload.data;
    for (const [field, type] of Object.entries(PUBLISHED_EXAMPLE)) {
      assert.equal(typeOf(data[field]), type, `${field}: ${JSON.stringify(data[field])}`);
    }
    assert.equal(data.virtualAccount, account._id);
    assert.equal(data.externalReference, account.externalReference);
    assert.equal(data.paymentReference, data.sessionId);
    assert.equal(data.amount, 1001);
    assert.equal(data.fees, 5.01);
    assert.equal(data.status, 'Completed');
    assert.equal(data.account, undefined, 'virtualAccount replaces account');
    assert.deepEqual(data, payment);
  });

  it('sends no transfer event for the settlement credit (one event per payment)', async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const account = await createVirtualAccount(testApp.app, headers, ownAccountNumber, {
      amount: 9,
    });
    const payment = (await payVirtualAccount(testApp.app, account.accountNumber, 9)).json().data;
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=transfer&limit=100',
      headers,
    });
    const ids = list
      .json()
      .data.map((item: { payload: { data: { _id: string } } }) => item.payload.data._id);
    assert.ok(!ids.includes(payment._id));
  });
});
