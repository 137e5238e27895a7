import { claimDue, type DueRows } from '../../db/claim-due.ts';
import type { Queryable } from '../../db/db.ts';
import type { DueClaim } from '../../shared/poll-loop.ts';
import type { AlertChannel, AlertMessage, NewAlertMessage } from './alert-message.ts';

interface MessageRow {
  id: string;
  account_id: string;
  account_number: string;
  client_id: string;
  channel: AlertChannel;
  destination: string;
  status: AlertMessage['status'];
  subject: string | null;
  text_body: string;
  html_body: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  statement_month: string | null;
}

const COLUMNS = `id, account_id, account_number, client_id, channel, destination, status, subject,
  text_body, html_body, attempts, next_attempt_at, last_error, created_at, sent_at,
  to_char(statement_month, 'YYYY-MM-DD') AS statement_month`;

function toMessage(row: MessageRow): AlertMessage {
  return {
    id: row.id,
    accountId: row.account_id,
    accountNumber: row.account_number,
    clientId: row.client_id,
    channel: row.channel,
    destination: row.destination,
    status: row.status,
    subject: row.subject,
    textBody: row.text_body,
    htmlBody: row.html_body,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    statementMonth: row.statement_month,
  };
}

/**
 * Inserts messages; one whose id exists already is left as it is (ids are derived from what
 * happened, so making a notice's messages twice makes them once).
 */
export async function insertMessages(
  tx: Queryable,
  messages: readonly NewAlertMessage[],
): Promise<void> {
  if (messages.length === 0) {
    return;
  }
  await tx.query(
    `INSERT INTO alert_messages (id, account_id, account_number, client_id, channel, destination,
         status, subject, text_body, html_body, next_attempt_at, last_error, created_at,
         statement_month)
     SELECT m.id, m.account_id, m.account_number, m.client_id, m.channel, m.destination, m.status,
            m.subject, m.text_body, m.html_body,
            CASE WHEN m.status = 'pending' THEN m.created_at END, m.last_error, m.created_at,
            m.statement_month
       FROM jsonb_to_recordset($1::jsonb) AS m(id text, account_id text, account_number text,
            client_id text, channel text, destination text, status text, subject text,
            text_body text, html_body text, last_error text, created_at timestamptz,
            statement_month date)
     ON CONFLICT (id) DO NOTHING`,
    [
      JSON.stringify(
        messages.map((message) => ({
          id: message.id,
          account_id: message.accountId,
          account_number: message.accountNumber,
          client_id: message.clientId,
          channel: message.channel,
          destination: message.destination,
          status: message.status,
          subject: message.subject,
          text_body: message.textBody,
          html_body: message.htmlBody,
          last_error: message.lastError ?? null,
          created_at: message.createdAt.toISOString(),
          statement_month: message.statementMonth ?? null,
        })),
      ),
    ],
  );
}

/** Which of these destinations are suppressed, as `channel:destination`. */
export async function findSuppressed(
  db: Queryable,
  destinations: readonly { channel: AlertChannel; destination: string }[],
): Promise<Set<string>> {
  if (destinations.length === 0) {
    return new Set();
  }
  const rows = await db.query<{ channel: string; destination: string }>(
    `SELECT channel, destination FROM alert_suppressed_destinations
      WHERE (channel, destination) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [destinations.map((d) => d.channel), destinations.map((d) => d.destination)],
  );
  return new Set(rows.map((row) => `${row.channel}:${row.destination}`));
}

/**
 * Pending messages wait for an attempt; a claim pushes next_attempt_at past the attempt's
 * longest time (so no other worker takes it meanwhile) and counts the attempt.
 */
const DUE_MESSAGES: DueRows = {
  table: 'alert_messages',
  dueColumn: 'next_attempt_at',
  waiting: `status = 'pending' AND (statement_month IS NULL OR channel = 'sms')`,
  countIn: 'attempts',
  returning: COLUMNS,
};

/**
 * Monthly statements' emails are claimed apart: each streams a PDF that may take minutes to
 * send, so they are claimed fewer at a time and for longer than alerts.
 */
const DUE_STATEMENT_EMAILS: DueRows = {
  ...DUE_MESSAGES,
  waiting: `status = 'pending' AND statement_month IS NOT NULL AND channel = 'email'`,
};

export async function claimDueMessages(
  db: Queryable,
  claim: DueClaim & { readonly statements: boolean },
): Promise<AlertMessage[]> {
  const rows = await claimDue<MessageRow>(
    db,
    claim.statements ? DUE_STATEMENT_EMAILS : DUE_MESSAGES,
    claim,
  );
  return rows.map(toMessage);
}

/** What an attempt ended in; written only while the attempt is still the message's latest. */
export type AttemptResult =
  | { readonly status: 'sent'; readonly at: Date }
  | { readonly status: 'pending'; readonly nextAttemptAt: Date; readonly error: string }
  | { readonly status: 'failed' | 'suppressed'; readonly error: string };

/**
 * Records a round's attempts in one statement (one commit for the round: one a message made
 * the alerts worker commit twice for every transfer between two holders; docs/benchmarks.md).
 * An attempt is written only while it is still its message's latest.
 */
export async function recordAttempts(
  db: Queryable,
  attempts: readonly {
    readonly message: Pick<AlertMessage, 'id' | 'attempts'>;
    readonly result: AttemptResult;
  }[],
): Promise<void> {
  if (attempts.length === 0) {
    return;
  }
  const rows = attempts.map(({ message, result }) => ({
    id: message.id,
    attempts: message.attempts,
    status: result.status,
    sent_at: result.status === 'sent' ? result.at : null,
    next_attempt_at: result.status === 'pending' ? result.nextAttemptAt : null,
    last_error: result.status === 'sent' ? null : result.error,
  }));
  await db.query(
    `UPDATE alert_messages m SET status = r.status, sent_at = r.sent_at,
         next_attempt_at = r.next_attempt_at, last_error = r.last_error
       FROM json_to_recordset($1::json) AS r(id text, attempts int, status text,
           sent_at timestamptz, next_attempt_at timestamptz, last_error text)
      WHERE m.id = r.id AND m.attempts = r.attempts AND m.status = 'pending'`,
    [JSON.stringify(rows)],
  );
}

/** A message the rate bound holds back: due again at `until`, the claim not counted. */
export async function deferMessage(
  db: Queryable,
  message: Pick<AlertMessage, 'id' | 'attempts'>,
  until: Date,
): Promise<void> {
  await db.query(
    `UPDATE alert_messages SET attempts = attempts - 1, next_attempt_at = $3
      WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
    [message.id, message.attempts, until],
  );
}

/**
 * A destination refused for good: recorded once, and every message still waiting for it is
 * suppressed with it (it would only be refused again).
 */
export async function suppressDestination(
  db: Queryable,
  suppression: { channel: AlertChannel; destination: string; reason: string; at: Date },
): Promise<void> {
  await db.query(
    `WITH suppressed AS (
       INSERT INTO alert_suppressed_destinations (channel, destination, reason, created_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING channel)
     UPDATE alert_messages SET status = 'suppressed', next_attempt_at = NULL,
         last_error = 'destination suppressed: ' || $3
      WHERE channel = $1 AND destination = $2 AND status = 'pending'`,
    [suppression.channel, suppression.destination, suppression.reason, suppression.at],
  );
}

/** How many messages each account was sent since `since` (the per-account rate bound). */
export async function countSentSince(
  db: Queryable,
  accountIds: readonly string[],
  since: Date,
): Promise<Map<string, { count: number; oldest: Date }>> {
  const rows = await db.query<{ account_id: string; sent: number; oldest: Date }>(
    `SELECT account_id, count(*)::int AS sent, min(sent_at) AS oldest FROM alert_messages
      WHERE account_id = ANY($1) AND status = 'sent' AND sent_at > $2
      GROUP BY account_id`,
    [accountIds, since],
  );
  return new Map(
    rows.map((row) => [row.account_id, { count: Number(row.sent), oldest: row.oldest }]),
  );
}

/** The sandbox's inbox: messages newest first, by account number and channel. */
export async function listMessages(
  db: Queryable,
  filter: {
    accountNumber?: string | undefined;
    channel?: AlertChannel | undefined;
    offset: number;
    limit: number;
  },
): Promise<{ messages: AlertMessage[]; total: number }> {
  const where = `($1::text IS NULL OR account_number = $1) AND ($2::text IS NULL OR channel = $2)`;
  const params = [filter.accountNumber ?? null, filter.channel ?? null];
  const [rows, counts] = await Promise.all([
    db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM alert_messages WHERE ${where}
        ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM alert_messages WHERE ${where}`,
      params,
    ),
  ]);
  return { messages: rows.map(toMessage), total: Number(counts[0]?.total ?? 0) };
}

export async function findMessage(db: Queryable, id: string): Promise<AlertMessage | undefined> {
  const rows = await db.query<MessageRow>(`SELECT ${COLUMNS} FROM alert_messages WHERE id = $1`, [
    id,
  ]);
  return rows[0] === undefined ? undefined : toMessage(rows[0]);
}

export interface SuppressedDestination {
  readonly channel: AlertChannel;
  readonly destination: string;
  readonly reason: string;
  readonly createdAt: Date;
}

/** Suppressed destinations, newest first, a page of them and how many there are. */
export async function listSuppressedDestinations(
  db: Queryable,
  page: { offset: number; limit: number },
): Promise<{ destinations: SuppressedDestination[]; total: number }> {
  const rows = await db.query<SuppressedDestination & { total: number }>(
    `SELECT channel, destination, reason, created_at AS "createdAt", count(*) OVER ()::int AS total
       FROM alert_suppressed_destinations
      ORDER BY created_at DESC, channel, destination OFFSET $1 LIMIT $2`,
    [page.offset, page.limit],
  );
  return {
    destinations: rows.map(({ total: _, ...destination }) => destination),
    total: rows[0]?.total ?? 0,
  };
}

/** Lets a suppressed destination be tried again; the row it was, or undefined if it was not. */
export async function liftSuppression(
  db: Queryable,
  destination: { channel: AlertChannel; destination: string },
): Promise<SuppressedDestination | undefined> {
  const rows = await db.query<SuppressedDestination>(
    `DELETE FROM alert_suppressed_destinations WHERE channel = $1 AND destination = $2
     RETURNING channel, destination, reason, created_at AS "createdAt"`,
    [destination.channel, destination.destination],
  );
  return rows[0];
}

/**
 * Retention: deletes up to `limit` messages settled (sent, failed for good or suppressed)
 * before `before`; how many. Pending ones are never deleted.
 */
export async function purgeSettledAlertMessages(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM alert_messages WHERE id IN (
       SELECT id FROM alert_messages WHERE status <> 'pending' AND created_at < $1
        ORDER BY created_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
