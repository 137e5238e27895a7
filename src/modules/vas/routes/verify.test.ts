import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VAS } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { simulatedCard, simulatedMeter } from '../providers/biller-simulator.ts';

/** An IKEJA meter and a DStv card that end in no magic value (BILLER_MAGIC). */
const METER = '45678912345';
const CARD = '7012345678';

describe('POST /vas/verify', () => {
  const context = useRouteContext();
  const verify = (serviceCategoryId: string, entityNumber: string) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/vas/verify',
      headers: context().headers,
      payload: { serviceCategoryId, entityNumber },
    });

  describe('200: a meter', () => {
    it("answers the meter's details as published", async () => {
      const response = await verify(VAS.ikeja, METER);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.statusCode, 200);
      assert.equal(body.message, 'Power Data verified successfully.');
      assert.equal(body.sessionId, undefined);
      const { data } = body;
      assert.equal(data.discoCode, 'IKEJA');
      assert.equal(data.vendType, 'PREPAID');
      assert.equal(data.meterNo, METER);
      assert.equal(data.minVendAmount, 500);
      assert.equal(data.maxVendAmount, 1_000_000);
      assert.equal(typeof data.outstanding, 'number');
      assert.equal(typeof data.debtRepayment, 'number');
      assert.equal(typeof data.name, 'string');
      assert.ok(data.name.length > 0);
      assert.equal(typeof data.address, 'string');
      assert.match(data.orderId, /^[0-9A-F]{32}$/);
      // The simulator derives them from the number: the same meter answers the same.
      const expected = simulatedMeter('IKEJA', METER);
      assert.equal(data.name, expected.name);
      assert.equal(data.address, expected.address);
      assert.equal(data.orderId, expected.orderId);
      assert.equal(data.outstanding, Number(expected.outstandingKobo) / 100);
      assert.equal(data.debtRepayment, Number(expected.debtRepaymentKobo) / 100);
      assert.deepEqual((await verify(VAS.ikeja, METER)).json().data, data);
    });

    it('a meter whose first digit is 0 is POSTPAID', async () => {
      const response = await verify(VAS.ikeja, '01234567891');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.vendType, 'POSTPAID');
    });
  });

  describe('200: a smart card', () => {
    it("answers the holder's name and a 30-digit session id", async () => {
      const response = await verify(VAS.dstv, CARD);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.statusCode, 200);
      assert.equal(body.message, 'Cable TV number verified successfully.');
      assert.deepEqual(body.data, { name: simulatedCard(CARD).name });
      assert.match(body.sessionId, /^\d{30}$/);
      const again = await verify(VAS.dstv, CARD);
      assert.notEqual(again.json().sessionId, body.sessionId);
    });
  });

  describe('400 and 402: no such customer, or the biller cannot tell', () => {
    it('a card or meter ending 0404 is unknown: 400 VAS_CUSTOMER_NOT_FOUND', async () => {
      for (const [categoryId, number] of [
        [VAS.dstv, '7012340404'],
        [VAS.ikeja, '45678910404'],
      ] as const) {
        const response = await verify(categoryId, number);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VAS_CUSTOMER_NOT_FOUND');
      }
    });

    it('a number of the wrong length for its kind is unknown too', async () => {
      const response = await verify(VAS.dstv, '12345');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VAS_CUSTOMER_NOT_FOUND');
    });

    it('ending 5030, the lookup is down: 402 BILLER_UNAVAILABLE', async () => {
      for (const [categoryId, number] of [
        [VAS.dstv, '7012345030'],
        [VAS.ikeja, '45678915030'],
      ] as const) {
        const response = await verify(categoryId, number);
        assert.equal(response.statusCode, 402, response.body);
        assert.equal(response.json().code, 'BILLER_UNAVAILABLE');
      }
    });
  });

  describe('400: refused before asking the biller', () => {
    it('an airtime or data category cannot be verified', async () => {
      for (const categoryId of [VAS.mtnAirtime, VAS.mtnData]) {
        const response = await verify(categoryId, '08031234567');
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });

    it('an unknown or malformed category: "Unable to locate record"', async () => {
      for (const categoryId of ['ffffffffffffffffffffffff', 'not-an-id', VAS.utility]) {
        const response = await verify(categoryId, METER);
        assert.equal(response.statusCode, 400, `${categoryId}: ${response.body}`);
        assert.equal(response.json().message, 'Unable to locate record', categoryId);
      }
    });

    it('an entity number that is not only digits, empty, or too long', async () => {
      for (const entityNumber of [
        '4567891234a',
        '4567-891234',
        ' 45678912345',
        '',
        '1'.repeat(21),
      ]) {
        const response = await verify(VAS.ikeja, entityNumber);
        assert.equal(response.statusCode, 400, `${JSON.stringify(entityNumber)}: ${response.body}`);
      }
    });

    it('a missing field', async () => {
      const response = await context().testApp.app.inject({
        method: 'POST',
        url: '/vas/verify',
        headers: context().headers,
        payload: { serviceCategoryId: VAS.ikeja },
      });
      assert.equal(response.statusCode, 400, response.body);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/vas/verify',
    payload: { serviceCategoryId: VAS.ikeja, entityNumber: METER },
  }));
});
