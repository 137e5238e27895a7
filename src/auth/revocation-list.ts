import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { listClientTokenRevocations } from './client-access-repository.ts';
import { listAppTokenRevocations } from './oauth-app-repository.ts';
import type { Principal } from './principal.ts';

export interface RevocationList {
  /** True when the token's app or client had its tokens revoked at or after `issuedAtMs`. */
  isRevoked(principal: Principal, issuedAtMs: number): Promise<boolean>;
  /** Forgets what was read, so the next check reads again (after a revocation here). */
  invalidate(): void;
  /**
   * Sandbox reset: the clients it took away, whose tokens are refused from now on (a token is
   * stateless, and nothing of its client is left to answer it), and those its fixtures brought
   * back, whose tokens count again.
   */
  clientsReset(change: { removed: readonly string[]; present: readonly string[] }): void;
}

interface Snapshot {
  readonly apps: ReadonlyMap<string, number>;
  readonly clients: ReadonlyMap<string, number>;
  readonly readAtMs: number;
}

/**
 * Access tokens are verified without the database, so a revocation reaches them through this
 * list: the revocation times of apps and clients, read again when older than `refreshMs` (one
 * small query per process every few seconds, shared by every request in that time). Only
 * revocations young enough to matter are read: a token lives at most `tokenTtlSeconds`.
 */
export function createRevocationList(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly refreshMs: number;
  readonly tokenTtlSeconds: number;
}): RevocationList {
  let snapshot: Snapshot = { apps: new Map(), clients: new Map(), readAtMs: -Infinity };
  const removedClients = new Set<string>();
  let reading: Promise<Snapshot> | undefined;

  async function read(): Promise<Snapshot> {
    const nowMs = deps.clock.now().getTime();
    // A minute of slack covers clock differences between the processes.
    const since = new Date(nowMs - (deps.tokenTtlSeconds + 60) * 1000);
    const [apps, clients] = await Promise.all([
      listAppTokenRevocations(deps.db, since),
      listClientTokenRevocations(deps.db, since),
    ]);
    return {
      apps: new Map(apps.map((entry) => [entry.appId, entry.revokedAt.getTime()])),
      clients: new Map(clients.map((entry) => [entry.clientId, entry.revokedAt.getTime()])),
      readAtMs: performance.now(),
    };
  }

  async function current(): Promise<Snapshot> {
    // How stale the list is counts in real time, whatever clock the bank runs on.
    if (performance.now() - snapshot.readAtMs < deps.refreshMs) {
      return snapshot;
    }
    if (reading === undefined) {
      const started = read().then((fresh) => {
        // A read that began before an invalidate may miss that revocation: it is not kept.
        if (reading === started) {
          snapshot = fresh;
          reading = undefined;
        }
        return fresh;
      });
      started.catch(() => {
        if (reading === started) {
          reading = undefined;
        }
      });
      reading = started;
    }
    return reading;
  }

  return {
    async isRevoked(principal, issuedAtMs) {
      if (removedClients.has(principal.clientId)) {
        return true;
      }
      const { apps, clients } = await current();
      const appRevokedAt = apps.get(principal.appId);
      const clientRevokedAt = clients.get(principal.clientId);
      return (
        (appRevokedAt !== undefined && issuedAtMs <= appRevokedAt) ||
        (clientRevokedAt !== undefined && issuedAtMs <= clientRevokedAt)
      );
    },
    invalidate() {
      snapshot = { ...snapshot, readAtMs: -Infinity };
      reading = undefined;
    },
    clientsReset({ removed, present }) {
      for (const clientId of removed) {
        removedClients.add(clientId);
      }
      for (const clientId of present) {
        removedClients.delete(clientId);
      }
    },
  };
}
