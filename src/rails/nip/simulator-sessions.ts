import type { Queryable } from '../../db/db.ts';
import type { Kobo } from '../../shared/money.ts';

/**
 * What the simulated network answers to a transfer, then to each status query in turn (the last
 * answer repeats). `send: null` means no answer at all: the caller's call timed out.
 */
export interface TransferScript {
  readonly send: string | null;
  readonly statusQueries: readonly [string, ...string[]];
  /**
   * The beneficiary bank sends the transfer back once it has succeeded, after the simulator's
   * return delay (kobo .81). Read when the session is added: the session keeps when it is due.
   */
  readonly returns?: true;
}

/** A transfer the beneficiary bank sent back, as the simulated network recorded it. */
export interface SimulatedReturn {
  /** The return's own session id: the beneficiary bank's code first. */
  readonly returnSessionId: string;
  readonly reason: string;
  readonly returnedAt: Date;
}

/** What the simulator remembers about one transfer session. */
export interface NipSimulatorSession {
  readonly receivedAt: Date;
  readonly amountKobo: Kobo;
  readonly script: TransferScript;
  readonly statusQueriesAnswered: number;
  /** The beneficiary's bank, whose code starts a return's session id (null on older rows). */
  readonly beneficiaryBankCode: string | null;
  /** When the beneficiary bank sends it back by itself (kobo .81); null: only when asked to. */
  readonly returnDueAt: Date | null;
  /** Sent back by the beneficiary bank, or null. */
  readonly returned: SimulatedReturn | null;
}

/** What a new session is recorded with: nothing asked about it and nothing returned yet. */
export type NewSimulatorSession = Omit<NipSimulatorSession, 'statusQueriesAnswered' | 'returned'>;

/** Where the simulated network keeps its sessions: in memory, or in the database. */
export interface SimulatorSessionStore {
  /** Records a new session; false when the session id was seen before (nothing changes). */
  add(sessionId: string, session: NewSimulatorSession): Promise<boolean>;
  /** Counts one more status query and answers the session as it was before it. */
  countStatusQuery(sessionId: string): Promise<NipSimulatorSession | undefined>;
  find(sessionId: string): Promise<NipSimulatorSession | undefined>;
  /**
   * Records that the beneficiary bank sent the session back, once: answers the return that
   * stands (this one, or the one recorded first), or undefined for a session never sent.
   */
  markReturned(sessionId: string, returned: SimulatedReturn): Promise<SimulatedReturn | undefined>;
}

export function createMemorySessionStore(): SimulatorSessionStore {
  const sessions = new Map<string, NipSimulatorSession>();
  return {
    async add(sessionId, session) {
      if (sessions.has(sessionId)) {
        return false;
      }
      sessions.set(sessionId, { ...session, statusQueriesAnswered: 0, returned: null });
      return true;
    },
    async countStatusQuery(sessionId) {
      const session = sessions.get(sessionId);
      if (session !== undefined) {
        sessions.set(sessionId, {
          ...session,
          statusQueriesAnswered: session.statusQueriesAnswered + 1,
        });
      }
      return session;
    },
    async find(sessionId) {
      return sessions.get(sessionId);
    },
    async markReturned(sessionId, returned) {
      const session = sessions.get(sessionId);
      if (session !== undefined && session.returned === null) {
        sessions.set(sessionId, { ...session, returned });
        return returned;
      }
      return session?.returned ?? undefined;
    },
  };
}

interface SessionRow {
  amount_kobo: bigint;
  send_code: string | null;
  status_query_codes: string[];
  status_queries_answered: number;
  received_at: Date;
  beneficiary_bank_code: string | null;
  return_due_at: Date | null;
  return_session_id: string | null;
  return_reason: string | null;
  returned_at: Date | null;
}

const SESSION_COLUMNS = `amount_kobo, send_code, status_query_codes, received_at,
  beneficiary_bank_code, return_due_at, return_session_id, return_reason, returned_at`;

/** Survives restarts and is shared by every process on the database (server and workers). */
export function createDatabaseSessionStore(db: Queryable): SimulatorSessionStore {
  const store: SimulatorSessionStore = {
    async add(sessionId, session) {
      const inserted = await db.query(
        `INSERT INTO nip_simulator_sessions (session_id, amount_kobo, send_code,
           status_query_codes, received_at, beneficiary_bank_code, return_due_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (session_id) DO NOTHING RETURNING session_id`,
        [
          sessionId,
          session.amountKobo,
          session.script.send,
          [...session.script.statusQueries],
          session.receivedAt,
          session.beneficiaryBankCode,
          session.returnDueAt,
        ],
      );
      return inserted.length === 1;
    },
    async countStatusQuery(sessionId) {
      const rows = await db.query<SessionRow>(
        `UPDATE nip_simulator_sessions SET status_queries_answered = status_queries_answered + 1
          WHERE session_id = $1
          RETURNING ${SESSION_COLUMNS}, status_queries_answered - 1 AS status_queries_answered`,
        [sessionId],
      );
      return rows[0] === undefined ? undefined : toSession(rows[0]);
    },
    async find(sessionId) {
      const rows = await db.query<SessionRow>(
        `SELECT ${SESSION_COLUMNS}, status_queries_answered
           FROM nip_simulator_sessions WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0] === undefined ? undefined : toSession(rows[0]);
    },
    async markReturned(sessionId, returned) {
      // The first return recorded stands; a second (or a racing one) reads it back.
      await db.query(
        `UPDATE nip_simulator_sessions
            SET return_session_id = $2, return_reason = $3, returned_at = $4
          WHERE session_id = $1 AND return_session_id IS NULL`,
        [sessionId, returned.returnSessionId, returned.reason, returned.returnedAt],
      );
      return (await store.find(sessionId))?.returned ?? undefined;
    },
  };
  return store;
}

function toSession(row: SessionRow): NipSimulatorSession {
  const [first, ...rest] = row.status_query_codes;
  if (first === undefined) {
    throw new Error('a simulator session has at least one status query answer');
  }
  return {
    receivedAt: row.received_at,
    amountKobo: row.amount_kobo,
    script: { send: row.send_code, statusQueries: [first, ...rest] },
    statusQueriesAnswered: row.status_queries_answered,
    beneficiaryBankCode: row.beneficiary_bank_code,
    returnDueAt: row.return_due_at,
    returned:
      row.return_session_id === null
        ? null
        : {
            returnSessionId: row.return_session_id,
            reason: row.return_reason ?? '',
            returnedAt: row.returned_at ?? row.received_at,
          },
  };
}
