import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { individualSubAccountBody, openSubAccount, sandboxCredit } from '../../test/factories.ts';
import { useRouteContext } from '../../test/shared-route-tests.ts';
import { FREE_FORM_LIMITS } from './free-form.ts';

/** `metadata` holding `text` in one key, `size` bytes long as JSON: `{"note":"xxx…"}`. */
function metadataOfBytes(size: number): Record<string, unknown> {
  return { note: 'x'.repeat(size - '{"note":""}'.length) };
}

/** Objects nested `levels` deep inside metadata: `{ l1: { l2: { … : 1 } } }`. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = levels; level >= 1; level -= 1) {
    value = { [`l${level}`]: value };
  }
  return value as Record<string, unknown>;
}

const entries = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index]));

/** What every free-form object is refused for, beyond its top level's 50 keys. */
const OVER_THE_BOUNDS: Record<string, unknown> = {
  'one value of 250 KB (an unauthenticated checkout stored it)': {
    note: 'x'.repeat(250_000),
  },
  'one byte over 8 KB': metadataOfBytes(FREE_FORM_LIMITS.bytes + 1),
  '8 KB of multi-byte text (counted in UTF-8 bytes, not characters)': {
    note: 'é'.repeat(FREE_FORM_LIMITS.bytes / 2),
  },
  'nested one level too deep': nested(FREE_FORM_LIMITS.depth + 1),
  'a nested object of 51 keys': { customer: entries(FREE_FORM_LIMITS.entries + 1) },
  'a list of 51 items': { items: Array.from({ length: FREE_FORM_LIMITS.entries + 1 }, () => 1) },
  'a JSON-encoded string of 9 KB (read as the object it encodes)': JSON.stringify(
    metadataOfBytes(9_000),
  ),
};

function assertRefusedNamingMetadata(response: LightMyRequestResponse, what: string) {
  assert.equal(response.statusCode, 400, `${what}: ${response.body.slice(0, 300)}`);
  const body = response.json();
  assert.equal(body.code, 'VALIDATION_ERROR', what);
  assert.equal(body.details[0].field, 'metadata', what);
  assert.match(body.message, /^metadata /, what);
}

describe('free-form objects (metadata) are bounded the same way on every route', () => {
  const context = useRouteContext();
  let subAccountId: string;

  before(async () => {
    const { testApp, headers, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 1_000);
    subAccountId = (await openSubAccount(testApp.app, headers, ownAccountNumber))._id;
  });

  const post = (url: string, payload: Record<string, unknown>, method = 'POST' as const) =>
    context().testApp.app.inject({ method, url, headers: context().headers, payload });

  describe('400 VALIDATION_ERROR naming metadata', () => {
    it('POST /checkout/sessions (no authentication): nothing is stored', async () => {
      const { testApp, oauthClientId, ownAccountNumber } = context();
      let serial = 0;
      for (const [what, metadata] of Object.entries(OVER_THE_BOUNDS)) {
        serial += 1;
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/checkout/sessions',
          remoteAddress: `10.30.0.${serial}`,
          payload: {
            environment: 'sandbox',
            clientId: oauthClientId,
            referenceCode: `BOUNDS-${serial}`,
            customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada@example.com' },
            currency: 'NGN',
            amount: 2500,
            settlementAccount: { bankCode: '999240', accountNumber: ownAccountNumber },
            metadata,
          },
        });
        assertRefusedNamingMetadata(response, what);
      }
      const [row] = await testApp.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM checkout_sessions',
      );
      assert.equal(row?.count, 0);
    });

    it('POST /accounts', async () => {
      for (const [what, metadata] of Object.entries(OVER_THE_BOUNDS)) {
        assertRefusedNamingMetadata(await post('/accounts', { metadata }), what);
      }
    });

    it('POST /accounts/subaccount and PUT /accounts/:id/subaccount', async () => {
      for (const [what, metadata] of Object.entries(OVER_THE_BOUNDS)) {
        const body = individualSubAccountBody('000000000000000000000000', { metadata });
        assertRefusedNamingMetadata(await post('/accounts/subaccount', body), what);
        const update = await context().testApp.app.inject({
          method: 'PUT',
          url: `/accounts/${subAccountId}/subaccount`,
          headers: context().headers,
          payload: { metadata },
        });
        assertRefusedNamingMetadata(update, what);
      }
    });
  });

  describe('200: within every bound', () => {
    it('exactly 8 KB, nested 5 levels deep, 50 entries in an object and in a list', async () => {
      const atTheBounds: Record<string, unknown>[] = [
        metadataOfBytes(FREE_FORM_LIMITS.bytes),
        nested(FREE_FORM_LIMITS.depth),
        { customer: entries(FREE_FORM_LIMITS.entries) },
        { items: Array.from({ length: FREE_FORM_LIMITS.entries }, () => 1) },
      ];
      for (const metadata of atTheBounds) {
        const response = await post('/accounts', { metadata });
        assert.equal(response.statusCode, 200, response.body.slice(0, 300));
        assert.deepEqual(response.json().data.metadata, metadata);
      }
    });
  });
});
