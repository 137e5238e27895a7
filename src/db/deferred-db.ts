import type { Db } from './db.ts';

/** A database usable at once whose queries wait until the real one is open. */
export interface DeferredDb extends Db {
  /** Settles when the database is open (rejects if it could not be). */
  readonly ready: Promise<void>;
}

/**
 * An in-memory start loads its database (a copy of the migrated image) while the services and
 * the HTTP app are built, instead of before: both take a few hundred milliseconds. Nothing can
 * reach the database through the app before the server listens, and the server listens only
 * once `ready` has settled.
 */
export function deferredDb(kind: Db['kind'], opening: Promise<Db>): DeferredDb {
  let opened: Db | undefined;
  const ready = opening.then((db) => {
    opened = db;
  });
  // Whoever starts the server awaits `ready`; until then a failure is not "unhandled".
  ready.catch(() => undefined);
  const open = async (): Promise<Db> => opened ?? (await opening);
  return {
    kind,
    ready,
    query: async (sql, params) => (await open()).query(sql, params),
    exec: async (sql) => (await open()).exec(sql),
    transaction: async (fn) => (await open()).transaction(fn),
    close: async () => (await open()).close(),
  };
}
