import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { lienFromRecall } from '../../../test/liens.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/liens/:id', () => {
  const context = useRouteContext();
  const get = (id: string) =>
    context().testApp.app.inject({ url: `/admin/liens/${id}`, headers: adminHeaders });

  it('200: a lien by id, whichever account owes it; after its release, who released it', async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const { lien } = await lienFromRecall(testApp.app, headers, ownAccountNumber, 289.25);
    const lienId = lien._id;
    const read = await get(lienId);
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json().data, lien);
    assert.equal(read.json().data.status, 'active');
    const released = await testApp.app.inject({
      method: 'POST',
      url: `/admin/liens/${lienId}/release`,
      headers: { ...adminHeaders, 'x-operator': 'ada' },
      payload: { reason: 'Goodwill' },
    });
    assert.equal(released.statusCode, 200, released.body);
    assert.deepEqual((await get(lienId)).json().data, released.json().data);
  });

  it('400 RECORD_NOT_FOUND for an unknown lien', async () => {
    const read = await get('0123456789abcdef01234567');
    assert.equal(read.statusCode, 400, read.body);
    assert.equal(read.json().code, 'RECORD_NOT_FOUND');
  });

  describeAdminAuthGuards(context, () => ({
    method: 'GET',
    url: '/admin/liens/0123456789abcdef01234567',
  }));
});
