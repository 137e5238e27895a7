import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VAS } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /vas/service/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/vas/service/${id}` });
  const get = (id: string, headers = context().headers) =>
    context().testApp.app.inject({ ...request(id), headers });

  describe('200: one service', () => {
    it('answers the data service as published', async () => {
      const response = await get(VAS.data);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Service fetched successfully.');
      assert.deepEqual(response.json().data, {
        _id: VAS.data,
        name: 'DATA PURCHASE',
        identifier: 'DATA',
        description: 'Data bundle subscription',
        createdAt: '2022-01-20T15:52:43.000Z',
        updatedAt: '2022-01-20T15:52:43.000Z',
        __v: 0,
      });
    });

    it('answers each service exactly as GET /vas/services lists it', async () => {
      const listed = await context().testApp.app.inject({
        method: 'GET',
        url: '/vas/services',
        headers: context().headers,
      });
      for (const service of listed.json().data) {
        const response = await get(service._id);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json().data, service);
      }
    });

    it('answers another client the same shared catalogue', async () => {
      const response = await get(VAS.cableTv, context().otherHeaders);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.identifier, 'CABLETV');
    });
  });

  // The catalogue is shared, so there is no other client's service: unknown and malformed ids.
  describe('400 "Unable to locate record": unknown and malformed ids', () => {
    it('answers the same for every one, leaking nothing', async () => {
      const ids: [string, string][] = [
        ['unknown', 'ffffffffffffffffffffffff'],
        ['a category id, not a service id', VAS.mtnAirtime],
        ['an account id', context().ownAccountId],
        ['malformed', 'not-an-id'],
        ['injection attempt', "' OR '1'='1"],
        ['uppercase hex', VAS.airtime.toUpperCase()],
      ];
      for (const [label, id] of ids) {
        const response = await get(encodeURIComponent(id));
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        const body = response.json();
        assert.equal(body.message, 'Unable to locate record', label);
        assert.equal(body.code, 'RECORD_NOT_FOUND', label);
        assert.equal(body.data, undefined, label);
      }
    });
  });

  describeAuthGuards(context, () => request(VAS.airtime));
});
