import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTotp, newTotpSecret, totpCode, totpStep, totpUri } from './operator-totp.ts';

const NOW = new Date('2026-03-02T09:00:10.000Z');
const STEP_MS = 30_000;
const at = (steps: number) => new Date(NOW.getTime() + steps * STEP_MS);

describe('operator TOTP', () => {
  it('a secret is 20 random bytes in base32 (32 characters), new each time', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(newTotpSecret(), secret);
  });

  it('the URI names the bank as issuer and the operator, SHA1, 6 digits, 30 s', () => {
    const secret = newTotpSecret();
    const uri = new URL(totpUri(secret, { issuer: 'Acme Bank', email: 'ada@bank.example' }));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.host, 'totp');
    assert.equal(decodeURIComponent(uri.pathname), '/Acme Bank:ada@bank.example');
    assert.equal(uri.searchParams.get('issuer'), 'Acme Bank');
    assert.equal(uri.searchParams.get('secret'), secret);
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
  });

  it('matches the RFC 6238 test vector (SHA1, T = 59 s)', () => {
    // The RFC's secret is ASCII "12345678901234567890"; its 8-digit code ends in these six.
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    assert.equal(totpCode(secret, new Date(59_000)), '287082');
  });

  it("accepts this step's code and one step either side, answering the code's step", () => {
    const secret = newTotpSecret();
    for (const offset of [-1, 0, 1]) {
      const check = checkTotp(secret, totpCode(secret, at(offset)), NOW, null);
      assert.deepEqual(check, { ok: true, step: totpStep(NOW) + offset }, `offset ${offset}`);
    }
  });

  it('refuses a code two steps away, a wrong code and what is not six digits', () => {
    // A fixed secret: with a random one, a far code could equal a near one (one in ~300,000).
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    for (const code of [totpCode(secret, at(-2)), totpCode(secret, at(2)), '12345', 'abcdef', '']) {
      assert.deepEqual(
        checkTotp(secret, code, NOW, null),
        { ok: false, reason: 'wrong-code' },
        code,
      );
    }
    assert.equal(
      checkTotp(secret, totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', NOW), NOW, null).ok,
      false,
    );
  });

  it('refuses a code whose step is not after the last one accepted (a reused code)', () => {
    const secret = newTotpSecret();
    const code = totpCode(secret, NOW);
    const first = checkTotp(secret, code, NOW, null);
    assert.equal(first.ok, true);
    const step = totpStep(NOW);
    assert.deepEqual(checkTotp(secret, code, NOW, step), { ok: false, reason: 'reused-code' });
    // The previous step's code, still in the window, is older than the one used: refused too.
    assert.deepEqual(checkTotp(secret, totpCode(secret, at(-1)), NOW, step), {
      ok: false,
      reason: 'reused-code',
    });
    assert.deepEqual(checkTotp(secret, totpCode(secret, at(1)), NOW, step), {
      ok: true,
      step: step + 1,
    });
  });

  it('takes a code typed with a space in the middle', () => {
    const secret = newTotpSecret();
    const code = totpCode(secret, NOW);
    assert.equal(checkTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW, null).ok, true);
  });
});
