import { createRequire } from 'node:module';

/** Marks the query objects pg-db.ts makes: only those take the copy below. */
export const PLAIN_QUERY: unique symbol = Symbol('openibs.plainQueryConfig');

type Normalize = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** pg's utilities module: the one object pg's `Query` looks `normalizeQueryConfig` up on. */
const utils = createRequire(import.meta.url)('pg/lib/utils.js') as {
  normalizeQueryConfig: Normalize;
};

/** pg's own `normalizeQueryConfig`, kept for the test that holds ours to the same objects. */
export const pgNormalizeQueryConfig: Normalize = utils.normalizeQueryConfig;

/** The `normalizeQueryConfig` pg's queries use now: ours once installed. */
export function currentNormalizeQueryConfig(): Normalize {
  return utils.normalizeQueryConfig;
}

/**
 * pg's `normalizeQueryConfig`, with a plain copy for our own query objects. Why: pg (8.21 and
 * later, 8.23.1 at least) copies every query object it is given through
 * `Object.defineProperties(Object.create(proto), Object.getOwnPropertyDescriptors(config))`, so a
 * caller's class instance keeps its accessors; for a plain object of three data properties that
 * costs ~2.5 µs a query (a spread: 0.04 µs), on every query the server makes (docs/benchmarks.md,
 * "As deployed", 2026-11-29, evening). The objects pg-db.ts makes are literals of data
 * properties, so a spread copies all they have; any other object goes to pg's own copy.
 */
function normalizeQueryConfig(config: unknown, values?: unknown, callback?: unknown): unknown {
  if (typeof config !== 'object' || config === null || !(PLAIN_QUERY in config)) {
    return pgNormalizeQueryConfig(config, values, callback);
  }
  const copy: Record<string, unknown> = { ...config };
  if (typeof values === 'function') {
    copy.callback = values;
  } else if (values) {
    copy.values = values;
  }
  if (callback) {
    copy.callback = callback;
  }
  return copy;
}

/**
 * Puts the faster copy in pg's utilities (pg's queries look it up there on every query), once,
 * if pg's own is still the one it was written against: it copies the object with
 * `cloneQueryConfig` and then sets `values` and `callback`. Answers whether ours is in place; a
 * pg that changed it is left as it is, and the test beside this file fails.
 */
export function installPlainQueryCopy(): boolean {
  if (utils.normalizeQueryConfig === normalizeQueryConfig) {
    return true;
  }
  const source = String(pgNormalizeQueryConfig);
  const expected = ['cloneQueryConfig(config)', 'config.values = values', 'config.callback'];
  if (!expected.every((part) => source.includes(part))) {
    return false;
  }
  utils.normalizeQueryConfig = normalizeQueryConfig;
  return true;
}
