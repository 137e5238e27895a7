import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  createVirtualAccount,
  nameEnquiry,
  payVirtualAccount,
  sandboxCredit,
} from '../../../test/factories.ts';
import { type RouteContext, useRouteContext } from '../../../test/shared-route-tests.ts';
import { newNipSessionId } from '../../shared/ids.ts';

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
});

interface QueuedEvent {
  readonly client_id: string;
  readonly type: string;
  readonly callback_url: string | null;
  readonly payload: { type: string; data: Record<string, unknown> };
}

/** Every event queued in the outbox for a payment's session, in the order they were queued. */
async function eventsOfSession(context: RouteContext, sessionId: string): Promise<QueuedEvent[]> {
  return context.testApp.db.query<QueuedEvent>(
    `SELECT client_id, type, callback_url, payload FROM webhook_events
      WHERE payload->'data'->>'sessionId' = $1 ORDER BY created_at, id`,
    [sessionId],
  );
}

/** The one event of this type among a payment's events. */
function only(events: readonly QueuedEvent[], type: string, clientId: string): QueuedEvent {
  const found = events.filter((event) => event.type === type && event.client_id === clientId);
  assert.equal(found.length, 1, `one ${type} event: ${JSON.stringify(events)}`);
  return found[0] as QueuedEvent;
}

/** A status call's answer: HTTP status and data. */
async function post(
  context: RouteContext,
  url: string,
  payload: object,
  headers = context.headers,
) {
  const response = await context.testApp.app.inject({ method: 'POST', url, headers, payload });
  return { statusCode: response.statusCode, data: response.json().data, body: response.body };
}

describe("a virtual account payment's settlement credit: the transfer event", () => {
  const context = useRouteContext();
  const ibsClientId = () => context().ibsClientId;

  /** An account of the client's own with a callbackUrl of its own, and a virtual account on it. */
  async function virtualAccountOnHookedAccount(amount: number) {
    const { testApp, headers } = context();
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: { suffix: 'Collections' },
    });
    const settlement = opened.json().data as { _id: string; accountNumber: string };
    // No route sets a main account's callbackUrl (sub-accounts have one): the same state.
    await testApp.db.query('UPDATE accounts SET callback_url = $1 WHERE id = $2', [
      'https://merchant.example.com/hooks/collections',
      settlement._id,
    ]);
    const account = await createVirtualAccount(testApp.app, headers, settlement.accountNumber, {
      amount,
    });
    return { settlement, account };
  }

  describe('from another bank over NIP', () => {
    it("queues one transfer event (the settlement account's Inwards transfer, to its callbackUrl) and one virtualAccount.transfer", async () => {
      const { settlement, account } = await virtualAccountOnHookedAccount(2500);
      const paid = await payVirtualAccount(context().testApp.app, account.accountNumber, 2500);
      assert.equal(paid.statusCode, 201, paid.body);
      const payment = paid.json().data;
      const events = await eventsOfSession(context(), payment.sessionId);
      assert.deepEqual(events.map((event) => event.type).sort(), [
        'transfer',
        'virtualAccount.transfer',
      ]);
      const credit = only(events, 'transfer', ibsClientId());
      assert.equal(credit.callback_url, 'https://merchant.example.com/hooks/collections');
      const data = credit.payload.data;
      assert.equal(data._id, payment._id, 'the same transfer as the virtualAccount.transfer');
      assert.equal(data.account, settlement._id);
      assert.equal(data.type, 'Inwards');
      assert.equal(data.creditAccountNumber, account.accountNumber);
      assert.equal(data.paymentReference, payment.sessionId);
      assert.deepEqual([data.amount, data.fees, data.vat], [2500, 12.5, 0.94]);
      const listed = await context().testApp.app.inject({
        method: 'GET',
        url: `/transfers?accountId=${settlement._id}`,
        headers: context().headers,
      });
      assert.deepEqual(
        listed.json().data.find((row: { _id: string }) => row._id === payment._id),
        data,
        'the transfer object GET /transfers lists',
      );
      const va = only(events, 'virtualAccount.transfer', ibsClientId());
      assert.equal(va.callback_url, 'https://merchant.example.com/hooks/va');
      assert.deepEqual(va.payload.data, payment);
    });

    it('is looked up at /virtual-accounts/status; /transfers/status still answers 400 for it', async () => {
      const account = await createVirtualAccount(
        context().testApp.app,
        context().headers,
        context().ownAccountNumber,
        { amount: 60 },
      );
      const payment = (
        await payVirtualAccount(context().testApp.app, account.accountNumber, 60)
      ).json().data;
      const credit = only(
        await eventsOfSession(context(), payment.sessionId),
        'transfer',
        ibsClientId(),
      );
      assert.equal(credit.callback_url, null, "the main account has none: the client's URL");
      const keys = {
        sessionId: credit.payload.data.sessionId,
        paymentReference: credit.payload.data.paymentReference,
      };
      assert.equal((await post(context(), '/transfers/status', keys)).statusCode, 400);
      const status = await post(context(), '/virtual-accounts/status', {
        sessionId: keys.sessionId,
      });
      assert.equal(status.statusCode, 200, status.body);
      assert.equal(status.data._id, credit.payload.data._id);
      assert.equal(status.data.paymentReference, keys.paymentReference);
    });

    it('queues each event once when the network resends the session at once', async () => {
      const { testApp } = context();
      const account = await createVirtualAccount(
        testApp.app,
        context().headers,
        context().ownAccountNumber,
        {
          amount: 45,
        },
      );
      const sessionId = newNipSessionId('000013', testApp.clock);
      const request = {
        sessionId,
        nameEnquiryReference: newNipSessionId('000013', testApp.clock),
        amountKobo: 4_500n,
        beneficiaryAccountNumber: account.accountNumber,
        originator: {
          bankCode: '000013',
          accountNumber: '0123456789',
          accountName: 'YUSUF BELLO',
          kycLevel: '2',
        },
        narration: 'Order 45',
      };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => testApp.services.inboundCredits.receive(request)),
      );
      assert.equal(new Set(answers.map((transfer) => transfer.id)).size, 1);
      const events = await eventsOfSession(context(), sessionId);
      assert.deepEqual(events.map((event) => event.type).sort(), [
        'transfer',
        'virtualAccount.transfer',
      ]);
    });
  });

  describe('intra-bank, by POST /transfers', () => {
    /** A transfer from `payer` to a virtual account, under the payer's own paymentReference. */
    async function pay(
      payer: { headers: Record<string, string>; accountNumber: string },
      accountNumber: string,
      amount: number,
      paymentReference: string,
    ) {
      const { testApp } = context();
      const enquiry = await nameEnquiry(testApp.app, payer.headers, '999240', accountNumber);
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/transfers',
        headers: payer.headers,
        payload: {
          nameEnquiryReference: enquiry.sessionId,
          debitAccountNumber: payer.accountNumber,
          beneficiaryBankCode: '999240',
          beneficiaryAccountNumber: accountNumber,
          amount,
          paymentReference,
          saveBeneficiary: false,
        },
      });
      return { statusCode: response.statusCode, data: response.json().data, body: response.body };
    }
    const otherPayer = () => ({
      headers: context().otherHeaders,
      accountNumber: context().otherAccountNumber,
    });
    const ownPayer = () => ({
      headers: context().headers,
      accountNumber: context().ownAccountNumber,
    });
    before(async () => {
      await sandboxCredit(context().testApp.app, context().otherAccountNumber, 5_000);
      await sandboxCredit(context().testApp.app, context().ownAccountNumber, 5_000);
    });

    it("names the payment by its session id in both events, the status answer and the history; the payer's transfer keeps the payer's reference", async () => {
      const { settlement, account } = await virtualAccountOnHookedAccount(400);
      const sent = await pay(otherPayer(), account.accountNumber, 400, 'INVOICE 7');
      assert.equal(sent.statusCode, 200, sent.body);
      const { sessionId } = sent.data;
      assert.equal(sent.data.paymentReference, 'INVOICE 7');
      const events = await eventsOfSession(context(), sessionId);
      assert.equal(events.length, 3, JSON.stringify(events));
      const payers = only(events, 'transfer', sent.data.client);
      assert.equal(payers.payload.data.type, 'Outwards');
      assert.equal(payers.payload.data.paymentReference, 'INVOICE 7');
      const credit = only(events, 'transfer', ibsClientId());
      assert.equal(credit.callback_url, 'https://merchant.example.com/hooks/collections');
      assert.equal(credit.payload.data.type, 'Inwards');
      assert.equal(credit.payload.data.account, settlement._id);
      assert.equal(credit.payload.data.creditAccountNumber, account.accountNumber);
      assert.equal(credit.payload.data.paymentReference, sessionId);
      assert.equal(credit.payload.data.fees, 2);
      const va = only(events, 'virtualAccount.transfer', ibsClientId());
      assert.equal(va.payload.data.paymentReference, sessionId);
      assert.equal(va.payload.data._id, credit.payload.data._id);
      const status = await post(context(), '/virtual-accounts/status', { sessionId });
      assert.deepEqual(status.data, va.payload.data);
      const history = await context().testApp.app.inject({
        method: 'GET',
        url: `/virtual-accounts/${account._id}/transaction`,
        headers: context().headers,
      });
      assert.deepEqual(history.json().data, [va.payload.data]);
      // The payer finds its own transfer by its own reference; the owner's query stays 400.
      const payerStatus = await post(
        context(),
        '/transfers/status',
        { paymentReference: 'INVOICE 7' },
        context().otherHeaders,
      );
      assert.equal(payerStatus.data._id, sent.data._id);
      assert.equal((await post(context(), '/transfers/status', { sessionId })).statusCode, 400);
      // The statement line of the payment still carries the reference the payer gave.
      const statement = await context().testApp.app.inject({
        method: 'GET',
        url: `/accounts/${settlement._id}/statement?type=Credit`,
        headers: context().headers,
      });
      const line = statement
        .json()
        .data.find((row: { narration: string }) => row.narration.includes(account.accountNumber));
      assert.equal(line?.reference, 'INVOICE 7', statement.body);
    });

    it('gives two payers who chose the same reference two different paymentReferences', async () => {
      const first = await createVirtualAccount(
        context().testApp.app,
        context().headers,
        context().ownAccountNumber,
        { amount: 30 },
      );
      const second = await createVirtualAccount(
        context().testApp.app,
        context().headers,
        context().ownAccountNumber,
        { amount: 30 },
      );
      const a = await pay(otherPayer(), first.accountNumber, 30, 'ORDER 1');
      const b = await pay(ownPayer(), second.accountNumber, 30, 'ORDER 1');
      assert.deepEqual([a.statusCode, b.statusCode], [200, 200], `${a.body} ${b.body}`);
      const references = [];
      for (const sessionId of [a.data.sessionId, b.data.sessionId]) {
        const events = await eventsOfSession(context(), sessionId);
        const va = only(events, 'virtualAccount.transfer', ibsClientId());
        assert.equal(va.payload.data.paymentReference, sessionId);
        references.push(va.payload.data.paymentReference);
      }
      assert.notEqual(references[0], references[1]);
      // A payment into its own virtual account: its Outwards answers the caller, as before.
      const own = await post(context(), '/transfers/status', { sessionId: b.data.sessionId });
      assert.equal(own.data.type, 'Outwards');
      assert.equal(own.data.paymentReference, 'ORDER 1');
    });

    it('queues nothing for a refused payment', async () => {
      const account = await createVirtualAccount(
        context().testApp.app,
        context().headers,
        context().ownAccountNumber,
        { amount: 20 },
      );
      const count = async () =>
        (
          await context().testApp.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM webhook_events',
          )
        )[0]?.n;
      const before = await count();
      const refused = await pay(otherPayer(), account.accountNumber, 19, 'SHORT 1');
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(await count(), before);
    });
  });
});
