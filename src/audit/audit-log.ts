import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import {
  type AuditEvent,
  type AuditQuery,
  insertAuditEvent,
  listAuditEvents,
} from './audit-repository.ts';

/** What a caller says about an event; the log adds the time. */
export type AuditEntry = Omit<AuditEvent, 'at' | 'sourceIp' | 'requestId' | 'details'> & {
  readonly details?: AuditEvent['details'];
  /** The request the event came from: its source IP and request id are recorded. */
  readonly request?: Pick<FastifyRequest, 'ip' | 'id'> | undefined;
};

export interface AuditLog {
  /**
   * Appends an event. A security event must not turn a refusal into a 500, so a failed write
   * is reported to `onError` (the process log) and not thrown.
   */
  record(entry: AuditEntry): Promise<void>;
  list(query: AuditQuery): ReturnType<typeof listAuditEvents>;
}

export function createAuditLog(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly onError?: (error: unknown, entry: AuditEntry) => void;
}): AuditLog {
  return {
    async record(entry) {
      try {
        await insertAuditEvent(deps.db, {
          at: deps.clock.now(),
          actor: entry.actor,
          action: entry.action,
          target: entry.target,
          outcome: entry.outcome,
          sourceIp: entry.request?.ip ?? null,
          requestId: entry.request?.id ?? null,
          details: entry.details ?? {},
        });
      } catch (error) {
        deps.onError?.(error, entry);
      }
    },
    list: (query) => listAuditEvents(deps.db, query),
  };
}
