import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/hashing.ts';
import { newSecretToken } from '../shared/ids.ts';
import {
  type DashboardSessionRecord,
  endAllDashboardSessions,
  endDashboardSession,
  endOperatorDashboardSessions,
  findLiveDashboardSession,
  insertDashboardSession,
} from './dashboard-session-repository.ts';

export interface DashboardSessions {
  /**
   * Opens a session for an operator (by id), or for a break-glass sign-in (`operatorId` null,
   * `operator` the name it gave); the secret goes in the browser's cookie and nowhere else.
   */
  open(
    operator: string,
    operatorId?: string | null,
  ): Promise<{ readonly secret: string; readonly expiresAt: Date }>;
  /** The session a cookie's secret names, if it is live (idle timeout and operator included). */
  find(secret: string): Promise<DashboardSessionRecord | undefined>;
  end(secret: string): Promise<void>;
  /** Ends every live session (an operator's action); answers how many. */
  endAll(): Promise<number>;
  /** Ends every live session of one operator (sign-out everywhere, disabling); how many. */
  endForOperator(operatorId: string): Promise<number>;
}

/**
 * Operator sessions of the dashboard, in the database that every server process shares: each
 * request looks its session up (no cache), so an ended session, an idle one or one whose operator
 * was disabled is refused by every process from the next request on. Only the secret's SHA-256
 * is stored.
 */
export function createDashboardSessions(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly ttlSeconds: number;
  readonly idleSeconds: number;
}): DashboardSessions {
  return {
    async open(operator, operatorId = null) {
      const secret = newSecretToken();
      const createdAt = deps.clock.now();
      const expiresAt = new Date(createdAt.getTime() + deps.ttlSeconds * 1000);
      await insertDashboardSession(deps.db, {
        tokenHash: sha256Hex(secret),
        operator,
        operatorId,
        createdAt,
        expiresAt,
      });
      return { secret, expiresAt };
    },
    find: (secret) =>
      findLiveDashboardSession(deps.db, sha256Hex(secret), deps.clock.now(), deps.idleSeconds),
    end: (secret) => endDashboardSession(deps.db, sha256Hex(secret), deps.clock.now()),
    endAll: () => endAllDashboardSessions(deps.db, deps.clock.now()),
    endForOperator: (operatorId) =>
      endOperatorDashboardSessions(deps.db, operatorId, deps.clock.now()),
  };
}
