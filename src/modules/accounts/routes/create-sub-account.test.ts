import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  getAccount,
  individualSubAccountBody,
  nameEnquiry,
  SANDBOX_BVN,
  sandboxCredit,
  sendTransfer,
  verifyIdentity,
} from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import {
  simulatedDirectorBvns,
  simulatedPerson,
} from '../../identity/providers/identity-bureau-simulator.ts';

// Sandbox identities (docs/sandbox-identity.md); every sandbox OTP is 123456.
const BVN = SANDBOX_BVN;
const OTHER_BVN = '22212345682';
const NIN = '12345678901';
const RC = 'RC1234567';

describe('POST /accounts/subaccount and /accounts/v2/subaccount', () => {
  const context = useRouteContext();
  let main: { _id: string; accountNumber: string };

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const verification = (type: string, number: string, validated = true) =>
    verifyIdentity(
      context().testApp.app,
      context().headers,
      { type, number, debitAccountNumber: main.accountNumber },
      validated,
    );
  const individual = individualSubAccountBody;
  const bookBalance = async (id: string) =>
    (await getAccount(context().testApp.app, context().headers, id)).bookBalance as number;

  before(async () => {
    const { testApp, ownAccountId, ownAccountNumber } = context();
    main = { _id: ownAccountId, accountNumber: ownAccountNumber };
    await sandboxCredit(testApp.app, main.accountNumber, 9_000);
  });

  describe('200: individuals, on a validated BVN/NIN', () => {
    it('opens a KYC level 2 sub-account named after the verified identity, at both paths', async () => {
      const identityId = await verification('BVN', BVN);
      const person = simulatedPerson(BVN);
      for (const url of ['/accounts/subaccount', '/accounts/v2/subaccount']) {
        const response = await call('POST', url, individual(identityId));
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().message, 'Sub account created successfully.');
        const data = response.json().data;
        assert.equal(data.isSubAccount, true);
        assert.equal(data.kycLevel, '2');
        assert.equal(
          data.accountName,
          [person.firstName, person.middleName, person.lastName]
            .filter(Boolean)
            .join(' ')
            .toUpperCase(),
        );
        assert.equal(data.accountHolderType, 'Individual');
        assert.equal(data.identityId, identityId);
        assert.equal(data.phoneNumber, '+2348112345678');
        assert.deepEqual(data.metadata, { customer: 'jane' });
        assert.match(data.accountNumber, /^\d{10}$/);
      }
      const listed = (await call('GET', '/accounts?isSubAccount=true')).json();
      assert.ok(listed.data.length >= 2);
      assert.ok(listed.data.every((account: { isSubAccount: boolean }) => account.isSubAccount));
    });

    it('validates a Pending verification with the otp given on creation', async () => {
      const identityId = await verification('NIN', NIN, false);
      const wrong = await call(
        'POST',
        '/accounts/v2/subaccount',
        individual(identityId, { identityType: 'NIN', identityNumber: NIN, otp: '000000' }),
      );
      assert.equal(wrong.json().code, 'OTP_INVALID');
      const right = await call(
        'POST',
        '/accounts/v2/subaccount',
        individual(identityId, { identityType: 'NIN', identityNumber: NIN, otp: '123456' }),
      );
      assert.equal(right.statusCode, 200, right.body);
    });
  });

  describe('200: a sub-account is an account like any other', () => {
    it('receive sandbox credits and transfers, and their statements show them', async () => {
      const identityId = await verification('BVN', BVN);
      const sub = (await call('POST', '/accounts/subaccount', individual(identityId))).json().data;
      await sandboxCredit(context().testApp.app, sub.accountNumber, 500);
      const enquiry = await nameEnquiry(
        context().testApp.app,
        context().headers,
        '999240',
        sub.accountNumber,
      );
      assert.equal(enquiry.accountName, sub.accountName);
      const sent = await call('POST', '/transfers', {
        nameEnquiryReference: enquiry.sessionId,
        debitAccountNumber: main.accountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: sub.accountNumber,
        amount: 250,
        saveBeneficiary: false,
      });
      assert.equal(sent.json().data.status, 'Completed', sent.body);
      const statement = (
        await call('GET', `/accounts/${sub._id}/statement?page=0&limit=10`)
      ).json();
      assert.deepEqual(
        statement.data.map((row: { type: string; amount: number }) => [row.type, row.amount]),
        [
          ['Credit', 250],
          ['Credit', 500],
        ],
      );
      const account = (await call('GET', `/accounts/${sub._id}`)).json().data;
      assert.equal(account.bookBalance, 750);
    });
  });

  describe('200: auto-sweep moves what is above the retained amount to the destination', () => {
    async function sweepingSubAccount(retainAmount: number, minimumAmount = 1) {
      const identityId = await verification('BVN', BVN);
      const response = await call(
        'POST',
        '/accounts/subaccount',
        individual(identityId, {
          autoSweep: true,
          autoSweepDetails: {
            destinationAccountNumber: main.accountNumber,
            retainAmount,
            minimumAmount,
          },
        }),
      );
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data as { _id: string; accountNumber: string; accountName: string };
    }

    it('moves what is above the retained amount to the destination after each credit', async () => {
      const sub = await sweepingSubAccount(100);
      const mainBefore = await bookBalance(main._id);
      await sandboxCredit(context().testApp.app, sub.accountNumber, 500);
      assert.equal(await bookBalance(sub._id), 100);
      assert.equal(await bookBalance(main._id), mainBefore + 400);
      const statement = (
        await call('GET', `/accounts/${sub._id}/statement?page=0&limit=10`)
      ).json();
      const rows = statement.data as { type: string; amount: number; narration: string }[];
      assert.deepEqual(
        rows.map((row) => [row.type, row.amount]),
        [
          ['Debit', 400],
          ['Credit', 500],
        ],
      );
      assert.equal(rows[0]?.narration, 'Auto-sweep');
      const history = (await call('GET', `/transfers?accountId=${sub._id}&type=Outwards`)).json();
      assert.equal(history.data[0].narration, 'Auto-sweep');
      assert.equal(history.data[0].creditAccountNumber, main.accountNumber);
      assert.equal(history.data[0].status, 'Completed');
      const [events] = await context().testApp.db.query<{ count: bigint }>(
        `SELECT count(*) FROM webhook_events WHERE payload->'data'->>'narration' = 'Auto-sweep'
            AND payload->'data'->>'account' = $1`,
        [sub._id],
      );
      assert.equal(Number(events?.count), 1, 'one transfer webhook for the sweep');
    });

    it('also sweeps after an intra-bank transfer in, and not below the minimum, nor when off', async () => {
      const sub = await sweepingSubAccount(0, 50);
      await sandboxCredit(context().testApp.app, sub.accountNumber, 30);
      assert.equal(await bookBalance(sub._id), 30, 'below the minimum: nothing moves');
      const sent = await sendTransfer(context().testApp.app, context().headers, {
        debitAccountNumber: main.accountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: sub.accountNumber,
        amount: 40,
      });
      assert.equal(sent.json().data.status, 'Completed');
      assert.equal(await bookBalance(sub._id), 0, 'the whole ₦70 swept back');
      const off = await call('PUT', `/accounts/${sub._id}/subaccount`, { autoSweep: false });
      assert.equal(off.json().data.autoSweep, false);
      await sandboxCredit(context().testApp.app, sub.accountNumber, 80);
      assert.equal(await bookBalance(sub._id), 80);
    });
  });

  describe('200: companies, on a CAC check and a validated director', () => {
    it('opens a KYC level 3 sub-account for a CAC-verified company with a validated director', async () => {
      const cacId = await verification('CAC', RC);
      const [directorBvn] = simulatedDirectorBvns(RC);
      assert.ok(directorBvn);
      const directorId = await verification('BVN', directorBvn);
      const response = await call('POST', '/accounts/subaccount', corporate(cacId, [directorId]));
      assert.equal(response.statusCode, 200, response.body);
      const data = response.json().data;
      assert.equal(data.kycLevel, '3');
      assert.equal(data.accountHolderType, 'Corporate');
      assert.equal(typeof data.accountName, 'string');
    });
  });

  let corporateReference = 0;
  function corporate(cacId: string, directorIdentityIds: string[], extra = {}) {
    return {
      phoneNumber: '+2348112345678',
      emailAddress: 'finance@company.example',
      externalReference: `CORP-${++corporateReference}`,
      identityType: 'CAC',
      identityNumber: RC,
      identityId: cacId,
      directorIdentityIds,
      ...extra,
    };
  }

  describe('400: an identity that is not verified, or not this one', () => {
    it('refuses a verification that is not validated, of another number, type or client', async () => {
      const pending = await verification('BVN', BVN, false);
      const validated = await verification('BVN', BVN);
      const foreign = await (async () => {
        const other = context().otherHeaders;
        const account = (await call('POST', '/accounts', {}, other)).json().data;
        await sandboxCredit(context().testApp.app, account.accountNumber, 100);
        const started = await call(
          'POST',
          '/identity/v2',
          { type: 'BVN', number: BVN, debitAccountNumber: account.accountNumber },
          other,
        );
        return started.json().data._id as string;
      })();
      const cases: [string, Record<string, unknown>][] = [
        ['not validated', individual(pending)],
        ['different number', individual(validated, { identityNumber: OTHER_BVN })],
        ['different type', individual(validated, { identityType: 'NIN' })],
        ["another client's", individual(foreign)],
        ['unknown id', individual('0'.repeat(24))],
      ];
      for (const [label, body] of cases) {
        const response = await call('POST', '/accounts/subaccount', body);
        assert.equal(response.statusCode, 400, label);
        assert.equal(response.json().code, 'IDENTITY_NOT_VERIFIED', `${label}: ${response.body}`);
      }
      const missing = await call(
        'POST',
        '/accounts/subaccount',
        individual(validated, { identityId: undefined }),
      );
      assert.equal(missing.json().code, 'VALIDATION_ERROR');
    });

    it('refuses a company without a validated director, or with someone who is not one', async () => {
      const cacId = await verification('CAC', RC);
      const [directorBvn] = simulatedDirectorBvns(RC);
      const unvalidated = await verification('BVN', directorBvn as string, false);
      const stranger = await verification('BVN', BVN);
      for (const directors of [[], [unvalidated], [stranger]]) {
        const response = await call('POST', '/accounts/subaccount', corporate(cacId, directors));
        assert.equal(response.statusCode, 400, JSON.stringify(directors));
        assert.equal(response.json().code, 'IDENTITY_NOT_VERIFIED');
      }
      const wrongName = await call(
        'POST',
        '/accounts/subaccount',
        corporate(cacId, [stranger], { companyName: 'Something Else Ltd' }),
      );
      assert.equal(wrongName.statusCode, 400);
    });
  });

  describe('400: bad input', () => {
    it('refuses malformed contact details', async () => {
      const identityId = await verification('BVN', BVN);
      for (const extra of [{ phoneNumber: 'call me' }, { emailAddress: 'not-an-email' }]) {
        const response = await call('POST', '/accounts/subaccount', individual(identityId, extra));
        assert.equal(response.statusCode, 400, JSON.stringify(extra));
      }
    });

    it('refuses an auto-sweep destination that is not another account of the caller', async () => {
      const identityId = await verification('BVN', BVN);
      const foreign = (await call('POST', '/accounts', {}, context().otherHeaders)).json().data;
      const response = await call(
        'POST',
        '/accounts/subaccount',
        individual(identityId, {
          autoSweep: true,
          autoSweepDetails: { destinationAccountNumber: foreign.accountNumber },
        }),
      );
      assert.equal(response.statusCode, 400);
    });
  });

  describe("400: the legacy body, a person's details and BVN without an identityId", () => {
    // A Laravel package's createSubAccount sends this older body (docs/api.md, decisions).
    const legacy = (extra: Record<string, unknown> = {}) => ({
      firstName: 'Jane',
      lastName: 'Doe',
      phoneNumber: '+2348112345678',
      emailAddress: 'jane.doe@example.com',
      externalReference: 'LEGACY-1',
      bvn: BVN,
      ...extra,
    });
    const subAccountCount = async () =>
      (await call('GET', '/accounts?isSubAccount=true')).json().pagination.total as number;

    it('is refused with 400 naming identityId; nothing is opened or charged', async () => {
      const before = { count: await subAccountCount(), balance: await bookBalance(main._id) };
      for (const url of ['/accounts/subaccount', '/accounts/v2/subaccount']) {
        const response = await call('POST', url, legacy());
        assert.equal(response.statusCode, 400, response.body);
        const body = response.json();
        assert.equal(body.code, 'VALIDATION_ERROR');
        assert.equal(body.message, 'identityId is required: initiate a verification first.');
        assert.deepEqual(body.details, [{ field: 'identityId', message: 'is required' }]);
      }
      assert.equal(await subAccountCount(), before.count);
      assert.equal(await bookBalance(main._id), before.balance);
    });

    it("is refused with an unknown or another client's identityId", async () => {
      const { testApp, otherHeaders, otherAccountNumber } = context();
      await sandboxCredit(testApp.app, otherAccountNumber, 500);
      const theirs = await verifyIdentity(testApp.app, otherHeaders, {
        type: 'BVN',
        number: BVN,
        debitAccountNumber: otherAccountNumber,
      });
      for (const identityId of [theirs, 'ffffffffffffffffffffffff']) {
        const response = await call('POST', '/accounts/subaccount', legacy({ identityId }));
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'IDENTITY_NOT_VERIFIED');
      }
    });

    it('opens the account once the identityId of a validated check is added, named by the check', async () => {
      const identityId = await verification('BVN', BVN);
      const person = simulatedPerson(BVN);
      const response = await call('POST', '/accounts/subaccount', legacy({ identityId }));
      assert.equal(response.statusCode, 200, response.body);
      const data = response.json().data;
      assert.equal(data.externalReference, 'LEGACY-1');
      assert.equal(data.identityType, 'BVN');
      assert.equal(data.kycLevel, '2');
      // The name comes from the verification, never from the firstName/lastName sent.
      assert.equal(
        data.accountName,
        [person.firstName, person.middleName, person.lastName]
          .filter(Boolean)
          .join(' ')
          .toUpperCase(),
      );
    });
  });

  describe('409: externalReference', () => {
    it('externalReference: the same body replays, another body is 409', async () => {
      const identityId = await verification('BVN', BVN);
      const body = individual(identityId, { externalReference: 'CUST-42' });
      const first = await call('POST', '/accounts/subaccount', body);
      // The same body with its keys in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await call('POST', '/accounts/subaccount', reordered);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().data._id, first.json().data._id);
      const other = await call('POST', '/accounts/subaccount', {
        ...body,
        emailAddress: 'x@example.com',
      });
      assert.equal(other.statusCode, 409);
      assert.equal(other.json().code, 'DUPLICATE_REFERENCE');
    });
  });

  for (const url of ['/accounts/subaccount', '/accounts/v2/subaccount']) {
    describe(url, () => {
      describeAuthGuards(context, () => ({ method: 'POST', url, payload: {} }));
    });
  }
});
