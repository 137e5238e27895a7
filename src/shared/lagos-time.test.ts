import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lagosDay, lagosDayStart, lagosIso, lagosMinute } from './lagos-time.ts';

describe('Lagos time', () => {
  it('writes an instant in Lagos (UTC+01:00), across midnight', () => {
    const late = new Date('2026-03-31T23:30:00.000Z');
    assert.equal(lagosIso(late), '2026-04-01T00:30:00.000+01:00');
    assert.equal(lagosMinute(late), '2026-04-01 00:30');
    assert.equal(lagosDay(late), '2026-04-01');
    assert.equal(new Date(lagosIso(late)).getTime(), late.getTime());
  });

  it('starts a Lagos day at 23:00 UTC the day before', () => {
    assert.equal(lagosDayStart('2026-03-02').toISOString(), '2026-03-01T23:00:00.000Z');
  });
});
