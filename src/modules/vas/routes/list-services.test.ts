import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VAS } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /vas/services', () => {
  const context = useRouteContext();
  const list = (headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: '/vas/services', headers });

  describe('200: the four services, as published', () => {
    it('answers AIRTIME, DATA, CABLETV and UTILITY with their published ids', async () => {
      const response = await list();
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Services fetched successfully.');
      assert.equal(body.data.length, 4);
      const byIdentifier = Object.fromEntries(
        body.data.map((service: { identifier: string; _id: string }) => [
          service.identifier,
          service._id,
        ]),
      );
      assert.deepEqual(byIdentifier, {
        AIRTIME: VAS.airtime,
        DATA: VAS.data,
        CABLETV: VAS.cableTv,
        UTILITY: VAS.utility,
      });
    });

    it('shows each in the published shape: names, descriptions, ISO dates and __v 0', async () => {
      const { data } = (await list()).json();
      const airtime = data.find((service: { _id: string }) => service._id === VAS.airtime);
      assert.deepEqual(airtime, {
        _id: VAS.airtime,
        name: 'Mobile Recharge',
        identifier: 'AIRTIME',
        description: 'Airtime Recharge',
        createdAt: '2022-01-20T15:51:52.311Z',
        updatedAt: '2022-01-20T15:51:52.311Z',
        __v: 0,
      });
      for (const service of data) {
        assert.deepEqual(Object.keys(service).sort(), [
          '__v',
          '_id',
          'createdAt',
          'description',
          'identifier',
          'name',
          'updatedAt',
        ]);
        assert.match(service._id, /^[0-9a-f]{24}$/);
        assert.match(service.createdAt, ISO_DATE);
        assert.match(service.updatedAt, ISO_DATE);
        assert.equal(service.__v, 0);
        assert.equal(typeof service.name, 'string');
        assert.equal(typeof service.description, 'string');
      }
    });

    it('is the same catalogue for every client', async () => {
      const own = (await list()).json().data;
      const other = (await list(context().otherHeaders)).json().data;
      assert.deepEqual(other, own);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/vas/services' }));
});
