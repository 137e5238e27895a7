import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/hashing.ts';
import { newSecretToken } from '../shared/ids.ts';
import {
  endAllDashboardSessions,
  endDashboardSession,
  findLiveDashboardSession,
  insertDashboardSession,
} from './dashboard-session-repository.ts';

export interface DashboardSessions {
  /** Opens a session; the secret goes in the browser's cookie and nowhere else. */
  open(operator: string): Promise<{ readonly secret: string; readonly expiresAt: Date }>;
  /** The session a cookie's secret names, if it is live. */
  find(
    secret: string,
  ): Promise<{ readonly operator: string; readonly expiresAt: Date } | undefined>;
  end(secret: string): Promise<void>;
  /** Ends every live session (an operator's action); answers how many. */
  endAll(): Promise<number>;
}

/**
 * Operator sessions of the dashboard, in the database that every server process shares: each
 * request looks its session up (no cache), so an ended session is refused by every process from
 * the next request on. Only the secret's SHA-256 is stored.
 */
export function createDashboardSessions(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly ttlSeconds: number;
}): DashboardSessions {
  return {
    async open(operator) {
      const secret = newSecretToken();
      const createdAt = deps.clock.now();
      const expiresAt = new Date(createdAt.getTime() + deps.ttlSeconds * 1000);
      await insertDashboardSession(deps.db, {
        tokenHash: sha256Hex(secret),
        operator,
        createdAt,
        expiresAt,
      });
      return { secret, expiresAt };
    },
    find: (secret) => findLiveDashboardSession(deps.db, sha256Hex(secret), deps.clock.now()),
    end: (secret) => endDashboardSession(deps.db, sha256Hex(secret), deps.clock.now()),
    endAll: () => endAllDashboardSessions(deps.db, deps.clock.now()),
  };
}
