import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { onPostgres, TEST_DATABASE_URL } from '../../test/test-db.ts';
import { createPgDb } from './pg-db.ts';
import { currentAddFields, installFastRowTemplate, pgAddFields } from './pg-row-template.ts';

const TEXT = 25;
const INT4 = 23;
const TIMESTAMPTZ = 1184;

type Described = { name: string; dataTypeID: number; format?: 'text' | 'binary' };

/** The rows pg makes of `raw` under the given `addFields`, as a Result would. */
function rowsWith(
  addFields: typeof pgAddFields,
  fields: readonly Described[],
  raw: readonly (string | null)[][],
) {
  const result = new pg.Result(undefined as unknown as string, pg.types) as unknown as {
    parseRow(values: readonly (string | null)[]): Record<string, unknown>;
  };
  addFields.call(result as never, fields);
  return raw.map((values) => result.parseRow(values));
}

describe('the faster empty row of pg results', () => {
  it('is in place with the pg this checkout installs (fails when pg changes its rows)', () => {
    assert.equal(installFastRowTemplate(), true);
    assert.notEqual(currentAddFields(), pgAddFields);
  });

  it('makes the rows pg makes: values, parsers, column order, nulls', () => {
    const fields: Described[] = [
      ...Array.from({ length: 28 }, (_, i) => ({ name: `column_${i}`, dataTypeID: TEXT })),
      { name: 'count', dataTypeID: INT4 },
      { name: 'at', dataTypeID: TIMESTAMPTZ },
    ];
    const raw = [
      [...Array.from({ length: 28 }, (_, i) => `value ${i}`), '42', '2026-11-29 10:00:00.5+00'],
      [...Array.from({ length: 28 }, () => null), null, null],
    ];
    const ours = rowsWith(currentAddFields(), fields, raw);
    const theirs = rowsWith(pgAddFields, fields, raw);
    assert.deepEqual(ours, theirs);
    assert.deepEqual(Object.keys(ours[0] ?? {}), Object.keys(theirs[0] ?? {}));
    assert.equal(ours[0]?.count, 42);
    assert.deepEqual(ours[0]?.at, new Date('2026-11-29T10:00:00.500Z'));
  });

  it('keeps a column named __proto__ as an own value, never as the prototype', () => {
    const fields: Described[] = [
      { name: '__proto__', dataTypeID: TEXT },
      { name: 'a', dataTypeID: TEXT },
      { name: 'a', dataTypeID: TEXT },
    ];
    for (const addFields of [currentAddFields(), pgAddFields]) {
      const [row] = rowsWith(addFields, fields, [['{"polluted":true}', 'first', 'second']]);
      assert.equal(Object.getPrototypeOf(row), Object.prototype);
      assert.deepEqual(Object.keys(row ?? {}), ['__proto__', 'a']);
      assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, '{"polluted":true}');
      // A repeated name keeps the last column's value, as pg does.
      assert.equal(row?.a, 'second');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    }
  });
});

describe('rows from PostgreSQL', { skip: !onPostgres }, () => {
  const db = createPgDb({ connectionString: TEST_DATABASE_URL as string, poolSize: 1 });
  after(() => db.close());

  it('a wide row comes back whole, bigints as BigInt, a second result described anew', async () => {
    const columns = Array.from({ length: 30 }, (_, i) => `'v${i}'::text AS c${i}`).join(', ');
    const [wide] = await db.query<Record<string, unknown>>(
      `SELECT ${columns}, 9007199254740993::bigint AS big, NULL::int AS none`,
    );
    assert.equal(Object.keys(wide ?? {}).length, 32);
    assert.equal(wide?.c29, 'v29');
    assert.equal(wide?.big, 9007199254740993n);
    assert.equal(wide?.none, null);
    const [narrow] = await db.query<Record<string, unknown>>('SELECT 1::int AS only');
    assert.deepEqual(narrow, { only: 1 });
  });
});
