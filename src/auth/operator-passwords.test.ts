import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dummyPasswordHash,
  hashPassword,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  verifyPassword,
} from './operator-passwords.ts';

// The lowest cost the stored form accepts: these tests check the format, not the cost.
const LOG2N = 14;

describe('operator passwords', () => {
  it('a hash carries its scheme, parameters, salt and hash, and verifies only its password', async () => {
    const stored = await hashPassword('correct horse battery', LOG2N);
    assert.match(stored, /^scrypt\$14\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse batterY', stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  it('two hashes of one password differ (a fresh salt each)', async () => {
    const first = await hashPassword('correct horse battery', LOG2N);
    const second = await hashPassword('correct horse battery', LOG2N);
    assert.notEqual(first, second);
    assert.equal(await verifyPassword('correct horse battery', second), true);
  });

  it('a hash made at another cost still verifies: the parameters are read from it', async () => {
    const stored = await hashPassword('correct horse battery', 15);
    assert.match(stored, /^scrypt\$15\$/);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
  });

  it('refuses a stored value that is not a hash of ours, or asks for an unbounded cost', async () => {
    const stored = await hashPassword('correct horse battery', LOG2N);
    const [, , , , salt, hash] = stored.split('$');
    for (const tampered of [
      '',
      'correct horse battery',
      `scrypt$30$8$1$${salt}$${hash}`,
      `scrypt$14$16$1$${salt}$${hash}`,
      `bcrypt$14$8$1$${salt}$${hash}`,
      `scrypt$14$8$1$${salt}$${hash}$extra`,
      `scrypt$14$8$1$${salt}$${hash?.slice(0, 20)}`,
    ]) {
      assert.equal(await verifyPassword('correct horse battery', tampered), false, tampered);
    }
  });

  it('a dummy hash verifies no password one would type', async () => {
    const stored = await dummyPasswordHash(LOG2N);
    assert.equal(await verifyPassword('', stored), false);
    assert.equal(await verifyPassword('correct horse battery', stored), false);
  });

  it('the policy: at least 12 characters, at most 256, not the email address or its name', () => {
    const email = 'ada.obi@bank.example';
    assert.match(passwordProblem('short', email) ?? '', /at least 12/);
    assert.match(passwordProblem('x'.repeat(PASSWORD_MIN_LENGTH - 1), email) ?? '', /at least/);
    assert.equal(passwordProblem('x'.repeat(PASSWORD_MIN_LENGTH), email), undefined);
    assert.match(passwordProblem('x'.repeat(257), email) ?? '', /at most 256/);
    assert.match(passwordProblem('ADA.OBI@bank.example', email) ?? '', /email/);
    assert.match(passwordProblem('ada.obi@bank.example', 'ada.obi@bank.example') ?? '', /email/);
    assert.match(passwordProblem('longname.person', 'longname.person@x.example') ?? '', /email/);
    // Characters, not UTF-16 units: twelve emoji are twelve characters.
    assert.equal(passwordProblem('🔒'.repeat(12), email), undefined);
    assert.match(passwordProblem('🔒'.repeat(6), email) ?? '', /at least/);
  });
});
