// PostgreSQL only: two instances starting together, and racing token refreshes, need real
// concurrent sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrate } from '../../src/db/migrate.ts';
import { runAdminStatement, withDatabase } from '../../src/db/pg-admin.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { createClient, issueTokens, signAssertion } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { TEST_DATABASE_URL } from '../test-db.ts';

describe('migrations from instances starting together (PostgreSQL)', () => {
  const name = `openibs_migrate_${process.pid}`;
  const admin = (sql: string) => runAdminStatement(TEST_DATABASE_URL ?? '', sql);
  before(() => admin(`CREATE DATABASE ${name}`));
  after(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('applies each migration exactly once when four instances migrate at once', async () => {
    const url = withDatabase(TEST_DATABASE_URL ?? '', name);
    const instances = Array.from({ length: 4 }, () =>
      createPgDb({ connectionString: url, poolSize: 2 }),
    );
    try {
      const applied = await Promise.all(instances.map((db) => migrate(db)));
      const appliedCounts = applied.map((names) => names.length).sort();
      assert.equal(appliedCounts.filter((count) => count > 0).length, 1, String(appliedCounts));
      const rows = await instances[0]?.query('SELECT name FROM schema_migrations');
      assert.equal(rows?.length, Math.max(...appliedCounts));
    } finally {
      await Promise.all(instances.map((db) => db.close()));
    }
  });
});

describe('refresh token races (PostgreSQL)', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp.close());

  it('lets exactly one of 20 parallel uses of a refresh token win', async () => {
    const client = await createClient(testApp.app);
    const tokens = await issueTokens(testApp, client);
    // A refresh authenticates the client too (RFC 6749 section 6).
    const clientAuthentication = {
      client_id: client.oauthClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
    };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        testApp.app.inject({
          method: 'POST',
          url: '/oauth2/token',
          payload: {
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            ...clientAuthentication,
          },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, String(statuses));
    assert.equal(statuses.filter((status) => status === 400).length, 19);
  });
});
