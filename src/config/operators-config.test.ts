import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from './config.ts';
import { FOUR_EYES_PRODUCTION_DEFAULT } from './operators-config.ts';

const PRODUCTION = {
  IBS_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/openibs',
  ADMIN_TOKEN: 'a'.repeat(40),
  TOKEN_SIGNING_SECRET: 'b'.repeat(40),
  OPERATOR_SECRETS_KEY: 'c'.repeat(64),
  PUBLIC_BASE_URL: 'https://api.bank.example/',
  INSTITUTION_CODE: '090286',
};

describe('FOUR_EYES and APPROVAL_TTL_SECONDS', () => {
  it('by default: the money and access actions in production, nothing in the sandbox', () => {
    assert.deepEqual(loadConfig(PRODUCTION).operators.fourEyes, {
      routes: FOUR_EYES_PRODUCTION_DEFAULT,
    });
    assert.deepEqual(loadConfig({}).operators.fourEyes, { routes: [] });
    assert.deepEqual(loadConfig({ FOUR_EYES: 'default' }).operators.fourEyes.routes, []);
    assert.equal(loadConfig({}).operators.approvalTtlSeconds, 86_400);
  });

  it('none, or a list of admin actions (spaces tidied, each once)', () => {
    assert.deepEqual(loadConfig({ ...PRODUCTION, FOUR_EYES: 'none' }).operators.fourEyes, {
      routes: [],
    });
    const listed = loadConfig({
      FOUR_EYES:
        'POST /admin/liens/:id/release , POST  /admin/liens/:id/release,PUT /admin/clients/:id/webhook',
    }).operators.fourEyes;
    assert.deepEqual(listed, {
      routes: ['POST /admin/liens/:id/release', 'PUT /admin/clients/:id/webhook'],
    });
  });

  it('refuses what is not an action: a read, a path alone, a word', () => {
    for (const value of ['GET /admin/clients', '/admin/liens/:id/release', 'everything']) {
      assert.throws(() => loadConfig({ FOUR_EYES: value }), /FOUR_EYES/, value);
    }
    assert.throws(() => loadConfig({ APPROVAL_TTL_SECONDS: '5' }), /APPROVAL_TTL_SECONDS/);
  });
});
