import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';

const PRODUCTION = {
  IBS_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/openibs',
  ADMIN_TOKEN: 'a'.repeat(40),
  TOKEN_SIGNING_SECRET: 'b'.repeat(40),
  PUBLIC_BASE_URL: 'https://api.bank.example/',
  INSTITUTION_CODE: '090286',
};

const keysOf = (env: Record<string, string>) => loadConfig(env).operators.localSignIn.secretsKeys;
const exported = (key: { key: { export(): Buffer } }) => key.key.export().toString('hex');

describe('OPERATOR_SECRETS_KEY', () => {
  it('production refuses to start without it, saying what it is and how to make one', () => {
    assert.throws(
      () => loadConfig(PRODUCTION),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /OPERATOR_SECRETS_KEY is required in production/);
        assert.match(error.message, /openssl rand -base64 32/);
        return true;
      },
    );
  });

  it('the sandbox runs without it (it derives its own, src/auth/operator-secret-box.ts)', () => {
    assert.equal(keysOf({}), undefined);
  });

  it('takes one bare key in hex, base64 or base64url, named "main"', () => {
    const bytes = randomBytes(32);
    for (const text of [
      bytes.toString('hex'),
      bytes.toString('base64'),
      bytes.toString('base64url'),
    ]) {
      const keys = keysOf({ ...PRODUCTION, OPERATOR_SECRETS_KEY: text });
      assert.equal(keys?.length, 1);
      assert.equal(keys?.[0]?.id, 'main');
      assert.equal(keys?.[0] && exported(keys[0]), bytes.toString('hex'));
    }
  });

  it('takes a list of id:key, in order: the first encrypts, all decrypt', () => {
    const [newer, older] = [randomBytes(32), randomBytes(32)];
    const keys = keysOf({
      OPERATOR_SECRETS_KEY: `2026-11:${newer.toString('base64')} , 2025_01:${older.toString('hex')}`,
    });
    assert.deepEqual(
      keys?.map((key) => [key.id, exported(key)]),
      [
        ['2026-11', newer.toString('hex')],
        ['2025_01', older.toString('hex')],
      ],
    );
  });

  it('refuses a short or malformed key, a bad id and an id twice, never echoing the key', () => {
    const short = randomBytes(16).toString('base64');
    const good = randomBytes(32).toString('base64');
    const cases: [string, RegExp][] = [
      [short, /key "main" must be 32 bytes/],
      [`k1:${good}!`, /key "k1" must be 32 bytes/],
      [`k1:${'z'.repeat(64)}`, /key "k1" must be 32 bytes/],
      [`a key:${good}`, /each key needs its own id/],
      [`k1:${good},k1:${good}`, /each key needs its own id/],
      [`${good},${good}`, /each key needs its own id/],
    ];
    for (const [value, problem] of cases) {
      assert.throws(
        () => loadConfig({ ...PRODUCTION, OPERATOR_SECRETS_KEY: value }),
        (error: Error) => {
          assert.match(error.message, problem, value);
          assert.ok(!error.message.includes(short) && !error.message.includes(good), value);
          return true;
        },
      );
    }
  });

  it('the loaded configuration shows no key bytes, printed or as JSON', () => {
    const bytes = randomBytes(32);
    const config = loadConfig({ ...PRODUCTION, OPERATOR_SECRETS_KEY: bytes.toString('hex') });
    const head = [...bytes.subarray(0, 6)];
    // As a string, as a Buffer prints (spaced hex), as a Buffer's JSON (a list of numbers).
    const forms = [
      ...(['hex', 'base64', 'base64url'] as const).map((form) => bytes.toString(form)),
      head.map((byte) => byte.toString(16).padStart(2, '0')).join(' '),
      head.join(','),
    ];
    for (const text of [JSON.stringify(config.operators), inspect(config, { depth: 10 })]) {
      for (const form of forms) {
        assert.ok(!text.includes(form), form);
      }
    }
  });
});
