import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from './clock.ts';
import { isNipSessionId, newNipSessionId, newObjectId } from './ids.ts';
import { isValidNuban, nubanCheckDigit, nubanFromSerial } from './nuban.ts';

describe('NUBAN', () => {
  it('computes the CBN check digit (3-digit bank codes are zero-padded)', () => {
    // The CBN standard's worked example: bank 011, serial 000001457 gives 0000014579.
    assert.equal(nubanFromSerial('011', 1457n), '0000014579');
    assert.equal(nubanCheckDigit('058', '015211975'), nubanCheckDigit('000058', '015211975'));
    assert.equal(nubanFromSerial('999240', 100000001n).length, 10);
  });

  it('accepts its own numbers and refuses a changed digit', () => {
    const number = nubanFromSerial('999240', 123456789n);
    assert.ok(isValidNuban('999240', number));
    const last = Number(number[9]);
    assert.ok(!isValidNuban('999240', number.slice(0, 9) + String((last + 1) % 10)));
    assert.ok(!isValidNuban('999240', '12345'));
  });

  it('refuses a serial that no longer fits nine digits', () => {
    assert.throws(() => nubanFromSerial('999240', 1_000_000_000n), RangeError);
  });
});

describe('ids', () => {
  const clock = new ManualClock(new Date('2021-10-20T01:14:04.054Z'));

  it('makes 24-hex object ids that start with the time in seconds', () => {
    const id = newObjectId(clock);
    assert.match(id, /^[0-9a-f]{24}$/);
    assert.equal(Number.parseInt(id.slice(0, 8), 16), 1634692444);
  });

  it('makes 30-digit NIP session ids: institution code, yyMMddHHmmss, 12 digits', () => {
    const sessionId = newNipSessionId('999240', clock);
    assert.match(sessionId, /^999240211020011404\d{12}$/);
    assert.ok(isNipSessionId(sessionId));
    assert.notEqual(newNipSessionId('999240', clock), sessionId);
  });
});
