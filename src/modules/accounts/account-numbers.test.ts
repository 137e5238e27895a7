import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { isValidNuban, nubanFromSerial } from '../../shared/nuban.ts';
import { permuteSerial } from './account-numbers.ts';

const KEY = Buffer.from('a fixed key for these tests, 32 bytes');

describe('permuteSerial: account numbers that cannot be walked', () => {
  it('maps 50,000 consecutive serials to as many distinct serials, all in range', () => {
    const seen = new Set<bigint>();
    for (let serial = 100_000_001n; serial < 100_050_001n; serial++) {
      const permuted = permuteSerial(serial, KEY);
      assert.ok(permuted >= 0n && permuted < 1_000_000_000n);
      seen.add(permuted);
    }
    assert.equal(seen.size, 50_000);
  });

  it('is a bijection on a small corner of the range it walks through (no two serials meet)', () => {
    // Serials at the very top, where cycle walking happens most.
    const seen = new Set<bigint>();
    for (let serial = 999_990_000n; serial < 1_000_000_000n; serial++) {
      seen.add(permuteSerial(serial, KEY));
    }
    assert.equal(seen.size, 10_000);
  });

  it('gives consecutive accounts unrelated numbers: neighbours are far apart', () => {
    const numbers = Array.from({ length: 1000 }, (_, index) =>
      permuteSerial(100_000_001n + BigInt(index), KEY),
    );
    const close = numbers.slice(1).filter((value, index) => {
      const previous = numbers[index] as bigint;
      const gap = value > previous ? value - previous : previous - value;
      return gap < 1000n;
    }).length;
    // Random 9-digit numbers are within 1,000 of each other about twice in a million pairs.
    assert.ok(close <= 2, `${close} of 999 neighbours within 1,000`);
  });

  it('is the same for the same key and different for another, and stays a valid NUBAN', () => {
    const other = randomBytes(32);
    let differing = 0;
    for (let serial = 100_000_001n; serial < 100_000_101n; serial++) {
      assert.equal(permuteSerial(serial, KEY), permuteSerial(serial, KEY));
      if (permuteSerial(serial, other) !== permuteSerial(serial, KEY)) {
        differing++;
      }
      const number = nubanFromSerial('999240', permuteSerial(serial, KEY));
      assert.match(number, /^\d{10}$/);
      assert.ok(isValidNuban('999240', number), number);
    }
    assert.ok(differing >= 98, `${differing} of 100 differ under another key`);
  });

  it('refuses a serial outside the 9 digits', () => {
    assert.throws(() => permuteSerial(1_000_000_000n, KEY), RangeError);
    assert.throws(() => permuteSerial(-1n, KEY), RangeError);
  });
});
