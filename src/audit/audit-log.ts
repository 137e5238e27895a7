import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import type { Db } from '../db/db.ts';
import { createGroupCommit } from '../db/group-commit.ts';
import { AppError, DATABASE_RETRY_AFTER_SECONDS } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { escapeUnstorable, escapeUnstorableDeep } from '../shared/storable-text.ts';
import { type ChainVerdict, type RecordedHead, verifyAuditChain } from './audit-chain.ts';
import { type AuditExportFormat, type ExportRange, exportAuditRows } from './audit-export.ts';
import {
  type AuditEvent,
  type AuditQuery,
  appendAuditEvents,
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
  /**
   * Appends the event of an action before it runs, or throws 503 AUDIT_TRAIL_UNAVAILABLE: an
   * action that cannot be recorded must not happen.
   */
  recordOrRefuse(entry: AuditEntry): Promise<void>;
  list(query: AuditQuery): ReturnType<typeof listAuditEvents>;
  /** Walks the whole hash chain (seconds per million rows): for an operator, not for polling. */
  verify(recorded?: RecordedHead): Promise<ChainVerdict>;
  /** The rows of a time range with their hashes, streamed (audit-export.ts). */
  export(range: ExportRange, format: AuditExportFormat): Readable;
}

/** Audit events that may wait for the chain's next append (one process). */
const AUDIT_QUEUE_MAX_WAITING = 5_000;

export function createAuditLog(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly onError?: (error: unknown, entry: AuditEntry) => void;
}): AuditLog {
  // Events that arrive together are appended in one call: the chain's lock is held through a
  // commit, so one append a commit would cap the trail at one event per commit's time.
  const appends = createGroupCommit<AuditEvent, undefined>({
    run: async (events) => {
      await appendAuditEvents(deps.db, events);
      return events.map(() => undefined);
    },
    maxBatch: 100,
    // More would only wait for the chain's lock.
    maxInFlight: 1,
    // A database that stops keeping up must not grow this queue without end: past the bound an
    // event is refused at once, which recordOrRefuse answers as AUDIT_TRAIL_UNAVAILABLE.
    queue: {
      maxWaiting: AUDIT_QUEUE_MAX_WAITING,
      refuse: () => new Error('the audit trail has too many events waiting'),
    },
  });
  const write = (entry: AuditEntry) => appends.submit(storable(deps.clock, entry));
  return {
    async record(entry) {
      try {
        await write(entry);
      } catch (error) {
        deps.onError?.(error, entry);
      }
    },
    async recordOrRefuse(entry) {
      try {
        await write(entry);
      } catch (error) {
        deps.onError?.(error, entry);
        if (isDatabaseUnavailable(error)) {
          // The whole database is away: the answer every route gives then (503
          // DATABASE_UNAVAILABLE, Retry-After), which clients already retry on.
          throw error;
        }
        throw new AppError('AUDIT_TRAIL_UNAVAILABLE', undefined, {
          cause: error,
          headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
        });
      }
    },
    list: (query) => listAuditEvents(deps.db, query),
    verify: (recorded) => verifyAuditChain(deps.db, { recorded }),
    export: (range, format) => exportAuditRows(deps.db, range, format),
  };
}

/**
 * The row as the database can always take it, whatever the caller put in it: every string, the
 * keys and values of `details` at any depth included, has U+0000 and lone surrogates written as
 * visible `\uXXXX` escapes (an attacker's path or claim is recorded, not lost).
 */
function storable(clock: Clock, entry: AuditEntry): AuditEvent {
  const state = (value: AuditEvent['before']) =>
    value === null || value === undefined
      ? null
      : (escapeUnstorableDeep(value) as AuditEvent['details']);
  const text = (value: string | null | undefined) =>
    value === null || value === undefined ? null : escapeUnstorable(value);
  return {
    at: clock.now(),
    actor: escapeUnstorable(entry.actor),
    action: escapeUnstorable(entry.action),
    target: text(entry.target),
    outcome: escapeUnstorable(entry.outcome),
    sourceIp: text(entry.request?.ip),
    requestId: text(entry.request?.id),
    details: escapeUnstorableDeep(entry.details ?? {}) as AuditEvent['details'],
    operatorId: text(entry.operatorId),
    sessionId: text(entry.sessionId),
    before: state(entry.before),
    after: state(entry.after),
  };
}
