import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { onPostgres, TEST_DATABASE_URL } from '../../test/test-db.ts';
import { createPgDb } from './pg-db.ts';
import {
  currentNormalizeQueryConfig,
  installPlainQueryCopy,
  PLAIN_QUERY,
  pgNormalizeQueryConfig,
} from './pg-query-config.ts';

/** An object's own string-keyed properties, as pg's Query reads them. */
const fieldsOf = (value: unknown) => ({ ...(value as Record<string, unknown>) });

describe("pg's copy of our query objects", () => {
  it('is in place with the pg this checkout installs (fails when pg changes its copy)', () => {
    assert.equal(installPlainQueryCopy(), true);
    assert.notEqual(currentNormalizeQueryConfig(), pgNormalizeQueryConfig);
  });

  it('makes what pg makes of a query object, values and callback, without touching it', () => {
    const callback = () => undefined;
    const cases: [unknown, unknown?, unknown?][] = [
      [{ name: 'q1', text: 'SELECT $1', values: [1] }],
      [{ name: 'q2', text: 'SELECT 1', values: undefined }],
      [{ name: 'q3', text: 'SELECT $1', values: [1] }, ['replaced']],
      [{ name: 'q4', text: 'SELECT 1' }, callback],
      [{ name: 'q5', text: 'SELECT $1' }, [2], callback],
    ];
    const normalize = currentNormalizeQueryConfig();
    for (const [config, values, callback] of cases) {
      const ours = { ...(config as object), [PLAIN_QUERY]: true };
      const before = { ...ours };
      const made = normalize(ours, values, callback);
      assert.deepEqual(fieldsOf(made), fieldsOf(pgNormalizeQueryConfig(ours, values, callback)));
      assert.notEqual(made, ours, 'a copy');
      assert.deepEqual(ours, before, "the caller's object is left as it was");
    }
  });

  it("leaves any other object (a class instance's accessors) and a string to pg's own copy", () => {
    class Lazy {
      get text() {
        return 'SELECT 1';
      }
    }
    const normalize = currentNormalizeQueryConfig();
    const made = normalize(new Lazy(), [1]) as object;
    assert.ok(made instanceof Lazy, "pg's copy keeps the prototype");
    assert.equal((made as Lazy).text, 'SELECT 1');
    assert.deepEqual(normalize('SELECT 1', [1]), { text: 'SELECT 1', values: [1] });
  });

  describe('through a real pool', { skip: !onPostgres && 'PostgreSQL only' }, () => {
    const db = createPgDb({ connectionString: TEST_DATABASE_URL ?? '', poolSize: 1 });
    after(() => db.close());

    it('runs named statements with their values, twice on one connection', async () => {
      for (const n of [1, 2]) {
        const rows = await db.query<{ n: number; s: string }>('SELECT $1::int AS n, $2 AS s', [
          n,
          'x',
        ]);
        assert.deepEqual(rows, [{ n, s: 'x' }]);
      }
    });
  });
});
