import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';
import {
  simulatedDirectorBvns,
  simulatedPerson,
} from '../../identity/providers/identity-bureau-simulator.ts';

// Sandbox identities (docs/sandbox-identity.md); every sandbox OTP is 123456.
const BVN = '22212345671';
const OTHER_BVN = '22212345682';
const NIN = '12345678901';
const RC = 'RC1234567';

describe('sub-accounts API', () => {
  const context = useRouteContext();
  let main: { _id: string; accountNumber: string };

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  async function verification(type: string, number: string, validated = true) {
    const started = await call('POST', '/identity/v2', {
      type,
      number,
      debitAccountNumber: main.accountNumber,
    });
    assert.equal(started.statusCode, 200, started.body);
    const id = started.json().data._id as string;
    if (validated && started.json().data.verificationStatus === 'Pending') {
      const done = await call('POST', '/identity/v2/validate', {
        identityId: id,
        type,
        otp: '123456',
      });
      assert.equal(done.statusCode, 200, done.body);
    }
    return id;
  }

  let reference = 0;
  const individual = (identityId: string, extra: Record<string, unknown> = {}) => ({
    phoneNumber: '+2348112345678',
    emailAddress: 'jane.doe@example.com',
    externalReference: `EXT-${++reference}`,
    identityType: 'BVN',
    identityNumber: BVN,
    identityId,
    metadata: { customer: 'jane' },
    ...extra,
  });

  before(async () => {
    const { testApp, ownAccountId, headers } = context();
    main = (
      await testApp.app.inject({ method: 'GET', url: `/accounts/${ownAccountId}`, headers })
    ).json().data;
    await sandboxCredit(testApp.app, main.accountNumber, 9_000);
  });

  describe('individuals', () => {
    it('opens a KYC level 2 sub-account named after the verified identity, at both paths', async () => {
      const identityId = await verification('BVN', BVN);
      const person = simulatedPerson(BVN);
      for (const url of ['/accounts/subaccount', '/accounts/v2/subaccount']) {
        const response = await call('POST', url, individual(identityId));
        assert.equal(response.statusCode, 200, response.body);
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

    it('refuses malformed contact details', async () => {
      const identityId = await verification('BVN', BVN);
      for (const extra of [{ phoneNumber: 'call me' }, { emailAddress: 'not-an-email' }]) {
        const response = await call('POST', '/accounts/subaccount', individual(identityId, extra));
        assert.equal(response.statusCode, 400, JSON.stringify(extra));
      }
    });
  });

  describe('companies', () => {
    const corporate = (cacId: string, directorIdentityIds: string[], extra = {}) => ({
      phoneNumber: '+2348112345678',
      emailAddress: 'finance@company.example',
      externalReference: `CORP-${++reference}`,
      identityType: 'CAC',
      identityNumber: RC,
      identityId: cacId,
      directorIdentityIds,
      ...extra,
    });

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

  describe('PUT /accounts/:id/subaccount', () => {
    it('changes contact details, metadata, callback URL and auto-sweep, never identity', async () => {
      const identityId = await verification('BVN', BVN);
      const created = (await call('POST', '/accounts/subaccount', individual(identityId))).json()
        .data;
      const response = await call('PUT', `/accounts/${created._id}/subaccount`, {
        phoneNumber: '+2348112345679',
        emailAddress: 'mat.doe@example.com',
        externalReference: created.externalReference,
        metadata: { updated: true },
        callbackUrl: 'http://127.0.0.1:9/hooks',
        autoSweep: true,
        autoSweepDetails: { destinationAccountNumber: main.accountNumber, retainAmount: 100 },
        accountBalance: 1_000_000,
        kycLevel: '3',
      });
      assert.equal(response.statusCode, 200, response.body);
      const data = response.json().data;
      assert.equal(data.phoneNumber, '+2348112345679');
      assert.equal(data.emailAddress, 'mat.doe@example.com');
      assert.deepEqual(data.metadata, { updated: true });
      assert.equal(data.callbackUrl, 'http://127.0.0.1:9/hooks');
      assert.equal(data.autoSweep, true);
      assert.deepEqual(data.autoSweepDetails, {
        destinationAccountNumber: main.accountNumber,
        retainAmount: 100,
        minimumAmount: 1,
      });
      assert.equal(data.accountBalance, 0);
      assert.equal(data.kycLevel, '2');
      const identityChange = await call('PUT', `/accounts/${created._id}/subaccount`, {
        identityId: '0'.repeat(24),
      });
      assert.equal(identityChange.statusCode, 400);
      const referenceChange = await call('PUT', `/accounts/${created._id}/subaccount`, {
        externalReference: `NEW-${created._id}`,
      });
      assert.equal(referenceChange.statusCode, 200, referenceChange.body);
      assert.equal(referenceChange.json().data.externalReference, `NEW-${created._id}`);
      const taken = (await call('POST', '/accounts/subaccount', individual(identityId))).json()
        .data;
      const clash = await call('PUT', `/accounts/${created._id}/subaccount`, {
        externalReference: taken.externalReference,
      });
      assert.equal(clash.statusCode, 409);
      assert.equal(clash.json().code, 'DUPLICATE_REFERENCE');
      const mainAccount = await call('PUT', `/accounts/${main._id}/subaccount`, {
        phoneNumber: '+2348112345679',
      });
      assert.equal(mainAccount.statusCode, 400);
    });
  });

  describe('sub-accounts are accounts', () => {
    it('receive sandbox credits and transfers, and their statements show them', async () => {
      const identityId = await verification('BVN', BVN);
      const sub = (await call('POST', '/accounts/subaccount', individual(identityId))).json().data;
      await sandboxCredit(context().testApp.app, sub.accountNumber, 500);
      const enquiry = (
        await call('POST', '/transfers/name-enquiry', {
          bankCode: '999240',
          accountNumber: sub.accountNumber,
        })
      ).json().data;
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

  describe('KYC level limits', () => {
    it('a level 2 sub-account moves at most ₦200,000 per transfer (TRANSFER_LIMITS_BY_KYC_NAIRA)', async () => {
      const identityId = await verification('BVN', BVN);
      const sub = (await call('POST', '/accounts/subaccount', individual(identityId))).json().data;
      await sandboxCredit(context().testApp.app, sub.accountNumber, 250_000);
      const enquiry = (
        await call('POST', '/transfers/name-enquiry', {
          bankCode: '999240',
          accountNumber: main.accountNumber,
        })
      ).json().data;
      const send = (amount: number) =>
        call('POST', '/transfers', {
          nameEnquiryReference: enquiry.sessionId,
          debitAccountNumber: sub.accountNumber,
          beneficiaryBankCode: '999240',
          beneficiaryAccountNumber: main.accountNumber,
          amount,
          saveBeneficiary: false,
        });
      const over = await send(200_000.01);
      assert.equal(over.statusCode, 402);
      assert.equal(over.json().code, 'TRANSFER_LIMIT_EXCEEDED');
      assert.equal((await send(200_000)).json().data.status, 'Completed');
    });
  });

  describe('auto-sweep', () => {
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
    const bookBalance = async (id: string) =>
      (await call('GET', `/accounts/${id}`)).json().data.bookBalance as number;

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
      const enquiry = (
        await call('POST', '/transfers/name-enquiry', {
          bankCode: '999240',
          accountNumber: sub.accountNumber,
        })
      ).json().data;
      const sent = await call('POST', '/transfers', {
        nameEnquiryReference: enquiry.sessionId,
        debitAccountNumber: main.accountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: sub.accountNumber,
        amount: 40,
        saveBeneficiary: false,
      });
      assert.equal(sent.json().data.status, 'Completed');
      assert.equal(await bookBalance(sub._id), 0, 'the whole ₦70 swept back');
      const off = await call('PUT', `/accounts/${sub._id}/subaccount`, { autoSweep: false });
      assert.equal(off.json().data.autoSweep, false);
      await sandboxCredit(context().testApp.app, sub.accountNumber, 80);
      assert.equal(await bookBalance(sub._id), 80);
    });

    it('refuses a destination that is not another account of the caller', async () => {
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

  describeAuthGuards(context, () => ({ method: 'POST', url: '/accounts/subaccount', payload: {} }));
  describeRecordIsolation(context, (id) => ({
    method: 'PUT',
    url: `/accounts/${id}/subaccount`,
    payload: { phoneNumber: '+2348112345679' },
  }));
});
