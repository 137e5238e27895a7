import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, rsaKeyPair } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  ACME,
  applyFixtures,
  fixtureClientHeaders,
  fixtureNuban,
  MTN_AIRTIME,
  RIVAL,
  sampleFixtures,
} from '../../../test/sandbox-fixtures.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

const AIRTIME_SERVICE = '61e985180e69308aa37a7a94';

/** The list's item, which the test's own document has. */
function nth<T>(list: T[] | undefined, index: number): T {
  const item = list?.[index];
  assert.ok(item !== undefined, `the document has item ${index}`);
  return item;
}

describe('POST /admin/sandbox/fixtures', () => {
  let testApp: TestApp;
  let summary: Record<string, unknown>;
  let acme: Record<string, string>;
  before(async () => {
    testApp = await buildTestApp();
    const response = await applyFixtures(testApp.app, sampleFixtures());
    assert.equal(response.statusCode, 200, response.body);
    summary = response.json().data;
    acme = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
  });
  after(() => testApp.close());

  const get = async (url: string, headers: Record<string, string> = acme) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };

  describe('200: the bank is what the fixtures declare', () => {
    it('answers what they made: ids, OAuth client ids, account numbers', () => {
      assert.deepEqual(summary, {
        seed: null,
        clients: [
          {
            name: 'Acme Fintech',
            ibsClientId: ACME.ibsClientId,
            oauthClientIds: [ACME.oauthClientId],
            mainAccountNumber: ACME.mainAccountNumber,
            accountNumbers: [ACME.mainAccountNumber, ACME.payrollAccountNumber],
            subAccountNumbers: [ACME.subAccountNumber],
            virtualAccountNumbers: (summary.clients as { virtualAccountNumbers: string[] }[])[0]
              ?.virtualAccountNumbers,
          },
          {
            name: 'Rival Ltd',
            ibsClientId: RIVAL.ibsClientId,
            oauthClientIds: [RIVAL.oauthClientId],
            mainAccountNumber: RIVAL.mainAccountNumber,
            accountNumbers: [RIVAL.mainAccountNumber],
            subAccountNumbers: [],
            virtualAccountNumbers: [],
          },
        ],
      });
    });

    it('signs a client in with the private key the test wrote, and shows its accounts', async () => {
      const accounts = await get('/accounts');
      assert.deepEqual(
        accounts
          .map((account: Record<string, unknown>) => [
            account.accountNumber,
            account.accountName,
            account.accountType,
            account.accountBalance,
          ])
          .sort(),
        [
          [ACME.mainAccountNumber, 'ACME FINTECH', 'Current', 250_000],
          [ACME.payrollAccountNumber, 'ACME FINTECH / Payroll', 'Savings', 1000.5],
        ],
      );
    });

    it('opens the sub-accounts and the virtual accounts', async () => {
      const listed = await get('/accounts?isSubAccount=true');
      const sub = listed.find((account: { accountNumber: string }) => {
        return account.accountNumber === ACME.subAccountNumber;
      });
      assert.equal(sub.accountName, 'ADA OBI');
      assert.equal(sub.accountBalance, 300);
      assert.equal(sub.externalReference, 'customer-1');
      assert.equal(sub.isSubAccount, true);
      const virtual = await get('/virtual-accounts');
      assert.equal(virtual.length, 1);
      assert.equal(virtual[0].amount, 5000);
      assert.equal(virtual[0].externalReference, 'order-1');
      assert.equal(virtual[0].status, 'Active');
    });

    it('saves the beneficiaries and the webhook settings', async () => {
      const beneficiaries = await get('/transfers/beneficiaries');
      assert.deepEqual(
        beneficiaries.map((entry: Record<string, unknown>) => [
          entry.bankCode,
          entry.accountNumber,
          entry.accountName,
        ]),
        [['000014', '0123456789', 'JANE DOE']],
      );
      const settings = await get('/webhooks/settings');
      assert.equal(settings.secret, ACME.webhookSecret);
    });

    it('signs in the client that registered a public key', async () => {
      const rival = await fixtureClientHeaders(
        testApp.app,
        { ...RIVAL, privateKey: rsaKeyPair(1).privateKey },
        testApp.clock.now(),
      );
      const [account] = await get('/accounts', rival);
      assert.equal(account.accountNumber, RIVAL.mainAccountNumber);
      assert.equal(account.accountBalance, 10);
    });

    it('changes the VAS catalogue and queues the NIP outcomes', async () => {
      const categories = await get(`/vas/service/${AIRTIME_SERVICE}/service-categories`);
      const mtn = categories.find((category: { _id: string }) => category._id === MTN_AIRTIME);
      assert.equal(mtn.description, 'MTN airtime (fixture)');
      assert.equal(mtn.minAmount, 100);
      const rail = testApp.services.rail as unknown as { queuedOutcomes(): string[] };
      assert.deepEqual(rail.queuedOutcomes(), ['51']);
    });

    it('funds every balance through the ledger, from the sandbox float: every journal balances', async () => {
      const [sums] = await testApp.db.query<{ entries: bigint; float: bigint }>(
        `SELECT (SELECT sum(amount_kobo)::bigint FROM ledger_entries) AS entries,
                (SELECT balance_kobo FROM ledger_accounts
                  WHERE id = 'gl.sandbox_external_float') AS float`,
      );
      assert.equal(sums?.entries, 0n);
      assert.equal(sums?.float, -(25_000_000n + 100_050n + 30_000n + 1_000n));
    });
  });

  describe('400: a bad document is refused whole, every problem named by its path', () => {
    const bad = () => {
      const fixtures = sampleFixtures();
      const [first, second] = [nth(fixtures.clients, 0), nth(fixtures.clients, 1)];
      nth(first.accounts, 1).accountNumber = '1234567890';
      nth(first.accounts, 1).balance = 10.005;
      nth(first.virtualAccounts, 0).settlementAccountNumber = RIVAL.mainAccountNumber;
      nth(first.beneficiaries, 0).bankCode = '999998';
      (first as Record<string, unknown>).colour = 'blue';
      second.ibsClientId = 'not-an-id';
      nth(second.apps, 0).oauthClientId = ACME.oauthClientId;
      fixtures.clients?.push({ name: 'Acme Fintech', ibsClientId: ACME.ibsClientId, accounts: [] });
      fixtures.vasCatalogue = { categories: [{ id: 'ffffffffffffffffffffffff' }] };
      fixtures.simulators = { nip: { nextOutcomes: ['00', '42'] } };
      return fixtures;
    };

    it('lists every problem and loads nothing', async () => {
      const before = await get('/accounts');
      const response = await applyFixtures(testApp.app, bad());
      assert.equal(response.statusCode, 400, response.body);
      const body = response.json();
      assert.equal(body.code, 'VALIDATION_ERROR');
      const fields = body.details.map((detail: { field: string }) => detail.field).sort();
      assert.deepEqual(fields, [
        'clients[0].accounts[1].accountNumber',
        'clients[0].accounts[1].balance',
        'clients[0].beneficiaries[0].bankCode',
        'clients[0].colour',
        'clients[0].virtualAccounts[0].settlementAccountNumber',
        'clients[1].apps[0].oauthClientId',
        'clients[1].ibsClientId',
        'clients[2].accounts',
        'clients[2].ibsClientId',
        'clients[2].name',
        'simulators.nip.nextOutcomes[1]',
        'vasCatalogue.categories[0].id',
      ]);
      assert.match(body.message, /^The fixtures were refused: /);
      assert.deepEqual(await get('/accounts'), before);
      const inForce = await testApp.app.inject({
        method: 'GET',
        url: '/admin/sandbox/fixtures',
        headers: adminHeaders,
      });
      assert.deepEqual(inForce.json().data, sampleFixtures());
    });

    it('names the check digit of a number that is no NUBAN of the bank', async () => {
      const fixtures = sampleFixtures();
      const nine = fixtureNuban(77).slice(0, 9);
      (fixtures.clients ?? [])[1]?.accounts.splice(0, 1, { accountNumber: `${nine}0` });
      const response = await applyFixtures(testApp.app, fixtures);
      const right = fixtureNuban(77).slice(9);
      if (right === '0') {
        assert.equal(response.statusCode, 200);
        return;
      }
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json().details, [
        {
          field: 'clients[1].accounts[0].accountNumber',
          message: `is not a NUBAN of institution 999240: after ${nine} the check digit is ${right}`,
        },
      ]);
    });

    it('refuses used twice: a name, an ibsClientId, an OAuth client id, an account number', async () => {
      const fixtures = sampleFixtures();
      const [first, second] = [nth(fixtures.clients, 0), nth(fixtures.clients, 1)];
      second.name = first.name;
      second.ibsClientId = first.ibsClientId;
      nth(second.apps, 0).oauthClientId = ACME.oauthClientId;
      nth(second.accounts, 0).accountNumber = ACME.subAccountNumber;
      const response = await applyFixtures(testApp.app, fixtures);
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(
        response.json().details.map((detail: { field: string }) => detail.field),
        [
          'clients[1].name',
          'clients[1].ibsClientId',
          'clients[1].apps[0].oauthClientId',
          'clients[1].accounts[0].accountNumber',
        ],
      );
    });

    it('refuses an app with no key, two keys, or a key that does not parse', async () => {
      const fixtures = sampleFixtures();
      nth(fixtures.clients, 0).apps = [
        { oauthClientId: 'c'.repeat(32) },
        { oauthClientId: 'd'.repeat(32), publicKeyPem: 'x', privateKeyPem: 'y' },
        { oauthClientId: 'e'.repeat(32), privateKeyPem: 'not a key' },
        { oauthClientId: 'f'.repeat(32), publicKeyPem: 'not a key either' },
      ];
      const response = await applyFixtures(testApp.app, fixtures);
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(
        response.json().details.map((detail: { field: string }) => detail.field),
        [
          'clients[0].apps[0]',
          'clients[0].apps[1]',
          'clients[0].apps[2].privateKeyPem',
          'clients[0].apps[3].publicKeyPem',
        ],
      );
    });

    it('refuses hostile documents with 400, never a server error', async () => {
      let deep: Record<string, unknown> = {};
      for (let level = 0; level < 40; level += 1) {
        deep = { clients: [deep] };
      }
      const hostile: unknown[] = [
        deep,
        { clients: 'everyone' },
        { clients: [{ name: 7, ibsClientId: [], accounts: {} }] },
        { clients: [null, 1, 'x', []] },
        { seed: '', clock: { startAt: 'yesterday', frozen: 'yes' } },
        { vasCatalogue: { categories: [{ id: MTN_AIRTIME, minAmount: 1e300 }] } },
        { vasCatalogue: { categories: [{ id: MTN_AIRTIME, products: [{}] }] } },
        { simulators: { nip: { nextOutcomes: 'all of them' } } },
        JSON.parse('{"__proto__": {"polluted": true}, "clients": []}'),
        { clients: [{ ...sampleFixtures().clients?.[0], accounts: [{ accountNumber: 1 }] }] },
      ];
      for (const payload of hostile) {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/admin/sandbox/fixtures',
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        assert.equal(response.statusCode, 400, response.body);
      }
      assert.deepEqual(
        (
          await testApp.app.inject({
            method: 'GET',
            url: '/admin/sandbox/fixtures',
            headers: adminHeaders,
          })
        ).json().data,
        sampleFixtures(),
      );
    });

    it('refuses a body that is no document', async () => {
      for (const payload of ['fixtures', 42, null]) {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/admin/sandbox/fixtures',
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });
  });

  describe('GET: the fixtures in force', () => {
    it('answers the document applied last', async () => {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/admin/sandbox/fixtures',
        headers: adminHeaders,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data, sampleFixtures());
    });
  });
});

describe('POST /admin/sandbox/fixtures: ids under a seed', () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    [first, second] = await Promise.all([buildTestApp(), buildTestApp()]);
  });
  after(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  /** What a test would snapshot: the ids and references the bank made for its calls. */
  async function madeIds(testApp: TestApp, seed: string | undefined) {
    const applied = await applyFixtures(testApp.app, { ...sampleFixtures(), seed });
    assert.equal(applied.statusCode, 200, applied.body);
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
    const enquiry = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload: { bankCode: '999240', accountNumber: RIVAL.mainAccountNumber },
    });
    const transfer = await testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers,
      payload: {
        nameEnquiryReference: enquiry.json().data.sessionId,
        debitAccountNumber: ACME.mainAccountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: RIVAL.mainAccountNumber,
        amount: 1500,
        saveBeneficiary: false,
      },
    });
    assert.equal(transfer.statusCode, 200, transfer.body);
    const [event] = await testApp.db.query<{ id: string }>(
      'SELECT id FROM webhook_events ORDER BY created_at, id LIMIT 1',
    );
    const { data } = transfer.json();
    return {
      virtualAccounts: applied.json().data.clients[0].virtualAccountNumbers,
      enquiry: enquiry.json().data.sessionId,
      transfer: [data._id, data.sessionId],
      event: event?.id,
    };
  }

  it('makes the same ids after a reset, and in another bank, from the same seed', async () => {
    const made = await madeIds(first, 'snapshot-seed');
    assert.deepEqual(await madeIds(first, 'snapshot-seed'), made);
    assert.deepEqual(await madeIds(second, 'snapshot-seed'), made);
    assert.notDeepEqual(await madeIds(second, 'another-seed'), made);
  });

  it('makes new ones at every load without a seed', async () => {
    const made = await madeIds(first, undefined);
    const again = await madeIds(first, undefined);
    assert.notEqual(again.transfer[0], made.transfer[0]);
    assert.notEqual(again.enquiry, made.enquiry);
  });
});

describe('POST /admin/sandbox/fixtures: operator access', () => {
  const context = useRouteContext();
  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/fixtures',
    payload: { clients: [] },
  }));

  it('403 SANDBOX_ONLY in production, for loading and for reading', async () => {
    const production = await buildTestApp({
      IBS_ENV: 'production',
      DATABASE_URL: 'postgres://unused.invalid/db',
      ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
      TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
      OPERATOR_SECRETS_KEY: 'c'.repeat(64),
      PUBLIC_BASE_URL: 'https://bank.example',
      INSTITUTION_CODE: '090286',
    });
    try {
      assert.equal(production.services.sandboxFixtures, undefined);
      for (const method of ['POST', 'GET'] as const) {
        const response = await production.app.inject({
          method,
          url: '/admin/sandbox/fixtures',
          headers: adminHeaders,
          ...(method === 'POST' ? { payload: sampleFixtures() } : {}),
        });
        assert.equal(response.statusCode, 403, response.body);
        assert.equal(response.json().code, 'SANDBOX_ONLY');
      }
    } finally {
      await production.close();
    }
  });
});
