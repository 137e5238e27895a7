import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

type PayPath = 'airtime' | 'data' | 'cable-tv' | 'utility';

/** A purchase the biller simulator answers at once, on each of the four paths. */
const BODIES: Record<PayPath, Record<string, unknown>> = {
  airtime: { serviceCategoryId: VAS.mtnAirtime, amount: 100, phoneNumber: '08031234567' },
  data: {
    serviceCategoryId: VAS.mtnData,
    amount: 1500,
    phoneNumber: '08031234567',
    bundleCode: 'mtn-2gb-30d',
  },
  'cable-tv': {
    serviceCategoryId: VAS.dstv,
    amount: 3600,
    cardNumber: '7012345678',
    bundleCode: 'db1',
  },
  utility: { serviceCategoryId: VAS.ikeja, amount: 500, meterNumber: '45678912345' },
};

/**
 * statusUrls that the webhook deliverer would refuse to call: the cloud metadata service, other
 * schemes, private networks, credentials, what is no URL. Each was once accepted as `pending`.
 */
const REFUSED = [
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'javascript:alert(document.cookie)',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_FLUSHALL',
  'ftp://merchant.example.com/status',
  'http://10.0.0.5/hook',
  'http://192.168.1.1/hook',
  'http://[fd00::1]/hook',
  'https://user:secret@merchant.example.com/vas-status',
  'not a url',
];

describe('VAS purchases: statusUrl is checked when the purchase is made', () => {
  const context = useRouteContext();
  const buy = (path: PayPath, statusUrl: string) =>
    vasPurchase(context().testApp.app, context().headers, path, {
      ...BODIES[path],
      debitAccountNumber: context().ownAccountNumber,
      statusUrl,
    });
  const available = async () =>
    (await getAccount(context().testApp.app, context().headers, context().ownAccountId))
      .accountBalance as number;
  const purchases = async () => {
    const [row] = await context().testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM vas_purchases',
    );
    return row?.count ?? -1;
  };

  before(() =>
    sandboxCredit(context().testApp.app, context().ownAccountNumber, 50_000).then(() => {}),
  );

  it('400 VALIDATION_ERROR naming statusUrl, on every path: no purchase, nothing held', async () => {
    const before = { available: await available(), purchases: await purchases() };
    for (const path of Object.keys(BODIES) as PayPath[]) {
      for (const statusUrl of REFUSED) {
        const response = await buy(path, statusUrl);
        const what = `${path} ${statusUrl}`;
        assert.equal(response.statusCode, 400, `${what}: ${response.body}`);
        const body = response.json();
        assert.equal(body.code, 'VALIDATION_ERROR', what);
        assert.equal(body.details[0].field, 'statusUrl', what);
        assert.match(body.message, /^statusUrl /, what);
      }
    }
    assert.equal(await purchases(), before.purchases);
    assert.equal(await available(), before.available);
  });

  it('a public https statusUrl is kept, and a loopback one in the sandbox (as webhooks)', async () => {
    for (const statusUrl of [
      'https://merchant.example.com/vas-status',
      'http://127.0.0.1:8080/vas-status',
    ]) {
      const response = await buy('airtime', statusUrl);
      assert.equal(response.statusCode, 200, response.body);
      const id = response.json().data.id;
      const read = await context().testApp.app.inject({
        method: 'GET',
        url: `/vas/transaction/${id}`,
        headers: context().headers,
      });
      assert.equal(read.json().data.statusUrl, statusUrl);
    }
  });
});
