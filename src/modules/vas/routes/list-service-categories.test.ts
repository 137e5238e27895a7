import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VAS } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface CategoryItem {
  _id: string;
  identifier: string;
  service: string;
  isFixedAmount: boolean;
  providerCommission: Record<string, unknown> | null;
  minAmount: number;
  maxAmount: number;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

describe('GET /vas/service/:id/service-categories', () => {
  const context = useRouteContext();
  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/vas/service/${id}/service-categories`,
  });
  const categoriesOf = async (serviceId: string) => {
    const response = await context().testApp.app.inject({
      ...request(serviceId),
      headers: context().headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Service Categories fetched successfully.');
    return response.json().data as CategoryItem[];
  };
  const idsByIdentifier = (categories: CategoryItem[]) =>
    Object.fromEntries(categories.map((category) => [category.identifier, category._id]));

  describe('200: the categories of a service', () => {
    it('airtime: MTN, AIRTEL, ETISALAT and GLO with their published ids', async () => {
      const categories = await categoriesOf(VAS.airtime);
      assert.deepEqual(idsByIdentifier(categories), {
        MTN: VAS.mtnAirtime,
        AIRTEL: '61e9896abce8e444a4976648',
        ETISALAT: '61e9898cbce8e444a497664b',
        GLO: '61e9892e0e69308aa37a7a9c',
      });
      const mtn = categories.find((category) => category._id === VAS.mtnAirtime);
      assert.deepEqual(mtn, {
        _id: VAS.mtnAirtime,
        name: 'MTN',
        identifier: 'MTN',
        service: VAS.airtime,
        vendor: '68075467e1c44b9bf8d23749',
        isFixedAmount: false,
        description: 'Mtn Airtime',
        logoUrl: '',
        providerCommission: { flatAmount: 0, percentageAmount: 3, minCap: null, maxCap: null },
        minAmount: 50,
        maxAmount: 50_000,
        createdAt: '2022-01-20T16:06:27.000Z',
        updatedAt: '2022-01-20T16:06:27.000Z',
        __v: 0,
      });
    });

    it('utility: the eleven distribution companies, IKEJA with its capped commission', async () => {
      const categories = await categoriesOf(VAS.utility);
      assert.equal(categories.length, 11);
      assert.deepEqual(
        categories.map((category) => category.identifier).sort(),
        [
          'ABUJA',
          'BENIN',
          'ENUGU',
          'EKO',
          'IBADAN',
          'IKEJA',
          'JOS',
          'KADUNA',
          'KANO',
          'PORTHARCOURT',
          'YOLA',
        ].sort(),
      );
      const ikeja = categories.find((category) => category.identifier === 'IKEJA');
      assert.equal(ikeja?._id, VAS.ikeja);
      assert.deepEqual(ikeja?.providerCommission, {
        flatAmount: 0,
        percentageAmount: 0.8,
        minCap: null,
        maxCap: 100,
      });
      assert.equal(ikeja?.minAmount, 500);
      assert.equal(ikeja?.maxAmount, 1_000_000);
    });

    it('data and cable TV: the MTN data and DStv categories, fixed-amount', async () => {
      const data = await categoriesOf(VAS.data);
      assert.equal(idsByIdentifier(data).MTN, VAS.mtnData);
      const cable = await categoriesOf(VAS.cableTv);
      assert.deepEqual(cable.map((category) => category.identifier).sort(), [
        'DSTV',
        'GOTV',
        'STARTIMES',
      ]);
      assert.equal(idsByIdentifier(cable).DSTV, VAS.dstv);
    });

    it("every category names its service, is fixed-amount by the service's kind, in the published shape", async () => {
      for (const [serviceId, fixed] of [
        [VAS.airtime, false],
        [VAS.data, true],
        [VAS.cableTv, true],
        [VAS.utility, false],
      ] as const) {
        const categories = await categoriesOf(serviceId);
        assert.ok(categories.length > 0, serviceId);
        for (const category of categories) {
          const label = `${serviceId} ${category.identifier}`;
          assert.equal(category.service, serviceId, label);
          assert.equal(category.isFixedAmount, fixed, label);
          assert.match(category._id, /^[0-9a-f]{24}$/, label);
          assert.match(category.createdAt, ISO_DATE, label);
          assert.match(category.updatedAt, ISO_DATE, label);
          assert.equal(category.__v, 0, label);
          assert.ok(category.minAmount <= category.maxAmount, label);
          assert.ok(category.providerCommission, label);
          assert.deepEqual(
            Object.keys(category.providerCommission).sort(),
            ['flatAmount', 'maxCap', 'minCap', 'percentageAmount'],
            label,
          );
          const { flatAmount, percentageAmount, minCap, maxCap } = category.providerCommission;
          assert.equal(typeof flatAmount, 'number', label);
          assert.equal(typeof percentageAmount, 'number', label);
          assert.ok(minCap === null || typeof minCap === 'number', label);
          assert.ok(maxCap === null || typeof maxCap === 'number', label);
        }
      }
    });
  });

  describe('400 "Unable to locate record": unknown and malformed service ids', () => {
    it('answers the same for every one, leaking nothing', async () => {
      const ids: [string, string][] = [
        ['unknown', 'ffffffffffffffffffffffff'],
        ['a category id, not a service id', VAS.mtnAirtime],
        ['malformed', 'not-an-id'],
        ['injection attempt', "' OR '1'='1"],
        ['uppercase hex', VAS.airtime.toUpperCase()],
      ];
      for (const [label, id] of ids) {
        const response = await context().testApp.app.inject({
          ...request(encodeURIComponent(id)),
          headers: context().headers,
        });
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        assert.equal(response.json().message, 'Unable to locate record', label);
        assert.equal(response.json().code, 'RECORD_NOT_FOUND', label);
        assert.equal(response.json().data, undefined, label);
      }
    });
  });

  describeAuthGuards(context, () => request(VAS.airtime));
});
