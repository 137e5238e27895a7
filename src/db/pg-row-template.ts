import pg from 'pg';

/** A column of a result, as pg hands its row description to `Result.addFields`. */
interface FieldDescription {
  readonly name: string;
  readonly dataTypeID: number;
  readonly format?: 'text' | 'binary';
}

/** What `addFields` reads and writes on pg's `Result` (lib/result.js, pg 8.21 to 8.23). */
interface ResultInternals {
  fields: readonly FieldDescription[];
  _parsers: unknown[];
  _types?: { getTypeParser(oid: number, format: 'text' | 'binary'): unknown };
  _prebuiltEmptyResultObject: Record<string, null>;
}

type AddFields = (this: ResultInternals, fields: readonly FieldDescription[]) => void;

const resultPrototype = pg.Result.prototype as unknown as {
  addFields: AddFields;
  parseRow: unknown;
};

/** pg's own `addFields`, kept for the test that holds ours to the same rows. */
export const pgAddFields: AddFields = resultPrototype.addFields;

/** The `addFields` pg's results use now: ours once installed. */
export function currentAddFields(): AddFields {
  return resultPrototype.addFields;
}

/**
 * The empty row every row of a result is copied from, and the column parsers: what pg's
 * `addFields` makes, made faster. Why: pg (8.21 and later, 8.23.1 at least) builds the empty
 * row on an `Object.create(null)` object and spreads it into a plain one; with more than a few
 * columns V8 keeps both in dictionary mode, and that spread costs ~6 µs for the account's 28
 * columns, on every query (PostgreSQL describes the result on every execution): 10 % of the
 * deployed server's time on `GET /accounts/:id` (docs/benchmarks.md). Here the same plain
 * object (every column null, in column order, a repeated name once) is built by assignment,
 * which keeps its properties fast. A column named `__proto__` is defined as an own property,
 * as pg's spread did: assigned, it would set the prototype.
 */
function addFieldsWithFastRow(this: ResultInternals, fields: readonly FieldDescription[]) {
  this.fields = fields;
  if (fields.length > 0) {
    this._parsers = new Array(fields.length);
  }
  const types = this._types ?? pg.types;
  const empty: Record<string, null> = {};
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as FieldDescription;
    if (field.name === '__proto__') {
      Object.defineProperty(empty, field.name, {
        value: null,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      empty[field.name] = null;
    }
    this._parsers[i] = types.getTypeParser(field.dataTypeID, field.format || 'text');
  }
  this._prebuiltEmptyResultObject = empty;
}

/**
 * Puts the faster `addFields` on pg's `Result`, once, if pg's own is still the one it was
 * written against (it copies rows from `_prebuiltEmptyResultObject`); answers whether ours is
 * in place. A pg that changed its rows is left as it is, and the test beside this file fails.
 */
export function installFastRowTemplate(): boolean {
  if (resultPrototype.addFields === addFieldsWithFastRow) {
    return true;
  }
  const source = String(pgAddFields);
  const copiesTheEmptyRow = String(resultPrototype.parseRow).includes('_prebuiltEmptyResultObject');
  if (!copiesTheEmptyRow || !source.includes('Object.create(null)')) {
    return false;
  }
  resultPrototype.addFields = addFieldsWithFastRow;
  return true;
}
