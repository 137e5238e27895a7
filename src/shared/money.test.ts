import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { koboToNaira, koboToNairaText, parseNaira } from './money.ts';

const MAX = 100_000_000_000n;

describe('naira codec', () => {
  it('reads naira numbers and strings as exact kobo', () => {
    const cases: [unknown, bigint][] = [
      [1, 100n],
      [1500.5, 150050n],
      [0.01, 1n],
      [0.1, 10n],
      [19.99, 1999n],
      [1.1, 110n],
      ['250.75', 25075n],
      [999999999.99, 99999999999n],
    ];
    for (const [value, kobo] of cases) {
      assert.deepEqual(parseNaira(value, MAX), { ok: true, kobo }, String(value));
    }
  });

  it('refuses what is not a positive amount with at most two decimals', () => {
    const cases: [unknown, string][] = [
      [0, 'not_positive'],
      [-1, 'not_positive'],
      ['-1', 'not_positive'],
      [10.005, 'too_many_decimals'],
      ['1.234', 'too_many_decimals'],
      [Number.NaN, 'not_a_number'],
      [Number.POSITIVE_INFINITY, 'not_a_number'],
      ['abc', 'not_a_number'],
      ['', 'not_a_number'],
      ['1e5', 'not_a_number'],
      [null, 'not_a_number'],
      [true, 'not_a_number'],
      [1e21, 'not_a_number'],
      [1e-7, 'not_a_number'],
      [1_000_000_001, 'too_large'],
    ];
    for (const [value, reason] of cases) {
      assert.deepEqual(parseNaira(value, MAX), { ok: false, reason }, String(value));
    }
  });

  it('writes kobo as the naira number the API shows', () => {
    assert.equal(koboToNaira(150050n), 1500.5);
    assert.equal(koboToNaira(1n), 0.01);
    assert.equal(koboToNaira(0n), 0);
    assert.equal(koboToNaira(-5000n), -50);
    assert.equal(koboToNaira(99999999999n), 999999999.99);
  });

  it('round-trips every kobo value of a sample without drift', () => {
    for (let kobo = 0n; kobo < 20_000n; kobo += 7n) {
      const naira = koboToNaira(kobo);
      if (kobo > 0n) {
        assert.deepEqual(parseNaira(naira, MAX), { ok: true, kobo });
      }
    }
  });
});

describe('naira text for documents', () => {
  it('writes two decimals, grouped or plain, exactly', () => {
    assert.equal(koboToNairaText(0n, { grouped: true }), '0.00');
    assert.equal(koboToNairaText(5n, { grouped: false }), '0.05');
    assert.equal(koboToNairaText(150050n, { grouped: false }), '1500.50');
    assert.equal(koboToNairaText(123456789012n, { grouped: true }), '1,234,567,890.12');
    assert.equal(koboToNairaText(-100000n, { grouped: true }), '-1,000.00');
    assert.equal(koboToNairaText(9007199254740993n, { grouped: false }), '90071992547409.93');
  });
});
