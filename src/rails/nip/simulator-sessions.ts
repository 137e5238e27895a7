import type { Queryable } from '../../db/db.ts';
import type { Kobo } from '../../shared/money.ts';

/**
 * What the simulated network answers to a transfer, then to each status query in turn (the last
 * answer repeats). `send: null` means no answer at all: the caller's call timed out.
 */
export interface TransferScript {
  readonly send: string | null;
  readonly statusQueries: readonly [string, ...string[]];
}

/** What the simulator remembers about one transfer session. */
export interface NipSimulatorSession {
  readonly receivedAt: Date;
  readonly amountKobo: Kobo;
  readonly script: TransferScript;
  readonly statusQueriesAnswered: number;
}

/** Where the simulated network keeps its sessions: in memory, or in the database. */
export interface SimulatorSessionStore {
  /** Records a new session; false when the session id was seen before (nothing changes). */
  add(
    sessionId: string,
    session: Omit<NipSimulatorSession, 'statusQueriesAnswered'>,
  ): Promise<boolean>;
  /** Counts one more status query and answers the session as it was before it. */
  countStatusQuery(sessionId: string): Promise<NipSimulatorSession | undefined>;
  find(sessionId: string): Promise<NipSimulatorSession | undefined>;
}

export function createMemorySessionStore(): SimulatorSessionStore {
  const sessions = new Map<string, NipSimulatorSession>();
  return {
    async add(sessionId, session) {
      if (sessions.has(sessionId)) {
        return false;
      }
      sessions.set(sessionId, { ...session, statusQueriesAnswered: 0 });
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
  };
}

interface SessionRow {
  amount_kobo: bigint;
  send_code: string | null;
  status_query_codes: string[];
  status_queries_answered: number;
  received_at: Date;
}

/** Survives restarts and is shared by every process on the database (server and workers). */
export function createDatabaseSessionStore(db: Queryable): SimulatorSessionStore {
  return {
    async add(sessionId, session) {
      const inserted = await db.query(
        `INSERT INTO nip_simulator_sessions
           (session_id, amount_kobo, send_code, status_query_codes, received_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id) DO NOTHING RETURNING session_id`,
        [
          sessionId,
          session.amountKobo,
          session.script.send,
          [...session.script.statusQueries],
          session.receivedAt,
        ],
      );
      return inserted.length === 1;
    },
    async countStatusQuery(sessionId) {
      const rows = await db.query<SessionRow>(
        `UPDATE nip_simulator_sessions SET status_queries_answered = status_queries_answered + 1
          WHERE session_id = $1
          RETURNING amount_kobo, send_code, status_query_codes, received_at,
                    status_queries_answered - 1 AS status_queries_answered`,
        [sessionId],
      );
      return rows[0] === undefined ? undefined : toSession(rows[0]);
    },
    async find(sessionId) {
      const rows = await db.query<SessionRow>(
        `SELECT amount_kobo, send_code, status_query_codes, status_queries_answered, received_at
           FROM nip_simulator_sessions WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0] === undefined ? undefined : toSession(rows[0]);
    },
  };
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
  };
}
