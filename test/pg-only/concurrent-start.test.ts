// PostgreSQL only: two instances starting together, and racing token refreshes, need real
// concurrent sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSqlSource, type Migrated, migrate, type SqlSource } from '../../src/db/migrate.ts';
import { runAdminStatement, withDatabase } from '../../src/db/pg-admin.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { createClient, issueTokens, signAssertion } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { buildLegacyDatabase } from '../legacy-database.ts';
import { TEST_DATABASE_URL } from '../test-db.ts';

describe('migrations from instances starting together (PostgreSQL)', () => {
  const admin = (sql: string) => runAdminStatement(TEST_DATABASE_URL ?? '', sql);
  const databases: string[] = [];
  after(() =>
    Promise.all(databases.map((name) => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  );

  async function newDatabase(): Promise<string> {
    const name = `openibs_migrate_${process.pid}_${databases.length}`;
    databases.push(name);
    await admin(`CREATE DATABASE ${name}`);
    return withDatabase(TEST_DATABASE_URL ?? '', name);
  }

  /** Four instances (two connections each) migrating one database at once. */
  async function migrateTogether(url: string, source: SqlSource): Promise<Migrated[]> {
    const instances = Array.from({ length: 4 }, () =>
      createPgDb({ connectionString: url, poolSize: 2 }),
    );
    try {
      return await Promise.all(instances.map((db) => migrate(db, source)));
    } finally {
      await Promise.all(instances.map((db) => db.close()));
    }
  }

  /** The one run that applied anything; every other must have found it done. */
  function theOneThatApplied(runs: readonly Migrated[]): Migrated {
    const busy = runs.filter((run) => run.migrations.length > 0 || run.functions.length > 0);
    assert.equal(busy.length, 1, JSON.stringify(runs));
    return busy[0] as Migrated;
  }

  let source: SqlSource;
  let url: string;
  before(async () => {
    source = await loadSqlSource();
    url = await newDatabase();
  });

  it('applies each migration and each function file exactly once when four instances start', async () => {
    const applied = theOneThatApplied(await migrateTogether(url, source));
    assert.deepEqual(
      applied.migrations,
      source.migrations.map((migration) => migration.name),
    );
    assert.deepEqual(
      [...applied.functions].sort(),
      source.functions.map((file) => file.name).sort(),
    );
    const db = createPgDb({ connectionString: url, poolSize: 1 });
    try {
      const recorded = await db.query('SELECT name FROM schema_functions');
      assert.equal(recorded.length, source.functions.length);
    } finally {
      await db.close();
    }
  });

  it('applies a changed function file exactly once when four instances start', async () => {
    const changed: SqlSource = {
      ...source,
      functions: source.functions.map((file) =>
        file.name === 'transfer_limit_day'
          ? { ...file, sql: `${file.sql}-- changed\n`, checksum: `${file.checksum}-changed` }
          : file,
      ),
    };
    const applied = theOneThatApplied(await migrateTogether(url, changed));
    assert.deepEqual(applied, { migrations: [], functions: ['transfer_limit_day'] });
  });

  it('records a database from before the baseline as at it exactly once', async () => {
    const legacyUrl = await newDatabase();
    const db = createPgDb({ connectionString: legacyUrl, poolSize: 1 });
    try {
      await buildLegacyDatabase(db);
    } finally {
      await db.close();
    }
    const applied = theOneThatApplied(await migrateTogether(legacyUrl, source));
    // Recorded as at the baseline, then brought on by the migrations after it, once.
    assert.deepEqual(
      applied.migrations,
      source.migrations.slice(1).map((migration) => migration.name),
    );
    for (const file of source.functions) {
      assert.ok(applied.functions.includes(file.name), `${file.name} made again from its file`);
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
