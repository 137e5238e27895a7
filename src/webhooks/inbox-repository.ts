import type { Queryable } from '../db/db.ts';

/** One delivery attempt as the sandbox's inbox keeps it. */
export interface InboxEntry {
  /** Increasing in the order the attempts were recorded (a cursor: `after`). */
  readonly id: string;
  readonly eventId: string;
  readonly attempt: number;
  readonly clientId: string;
  readonly type: string;
  /** Null when the client has no webhook URL: the event is recorded all the same. */
  readonly url: string | null;
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The exact bytes signed (and sent, when there was somewhere to send them). */
  readonly requestBody: string;
  readonly responseStatus: number | null;
  readonly responseBody: string | null;
  /** Why no answer came: the transport error or why the attempt was not made. */
  readonly error: string | null;
  readonly attemptedAt: Date;
}

/** How many entries the inbox keeps per client: the newest. */
export const INBOX_KEEP_PER_CLIENT = 1_000;

interface InboxRow {
  id: bigint | string;
  event_id: string;
  attempt: number;
  client_id: string;
  type: string;
  url: string | null;
  request_headers: Record<string, string>;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  attempted_at: Date;
}

const COLUMNS = `id, event_id, attempt, client_id, type, url, request_headers, request_body,
  response_status, response_body, error, attempted_at`;

/**
 * Records an attempt and, in the same statement, lets go of the client's entries beyond the
 * newest INBOX_KEEP_PER_CLIENT (the statement does not see its own row, so it keeps one fewer).
 */
export async function recordInboxEntry(
  db: Queryable,
  entry: Omit<InboxEntry, 'id'>,
): Promise<void> {
  await db.query(
    `WITH added AS (
       INSERT INTO webhook_inbox (event_id, attempt, client_id, type, url, request_headers,
           request_body, response_status, response_body, error, attempted_at)
       VALUES ($1, $2, $3, $4, $5, $6::json, $7, $8, $9, $10, $11)
       RETURNING id)
     DELETE FROM webhook_inbox
      WHERE client_id = $3
        AND id < (SELECT id FROM webhook_inbox WHERE client_id = $3
                   ORDER BY id DESC OFFSET $12 LIMIT 1)`,
    [
      entry.eventId,
      entry.attempt,
      entry.clientId,
      entry.type,
      entry.url,
      JSON.stringify(entry.requestHeaders),
      entry.requestBody,
      entry.responseStatus,
      entry.responseBody,
      entry.error,
      entry.attemptedAt,
      INBOX_KEEP_PER_CLIENT - 2,
    ],
  );
}

export interface InboxFilter {
  readonly clientId?: string | undefined;
  readonly type?: string | undefined;
  /** Attempts made at or after this time (the bank's clock). */
  readonly since?: Date | undefined;
  /** Entries recorded after the entry with this id. */
  readonly after?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** Entries that match, newest first, and how many match. */
export async function listInboxEntries(
  db: Queryable,
  filter: InboxFilter,
): Promise<{ entries: InboxEntry[]; total: number }> {
  const where = `($1::text IS NULL OR client_id = $1) AND ($2::text IS NULL OR type = $2)
    AND ($3::timestamptz IS NULL OR attempted_at >= $3) AND ($4::bigint IS NULL OR id > $4)`;
  const params = [
    filter.clientId ?? null,
    filter.type ?? null,
    filter.since ?? null,
    filter.after ?? null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<InboxRow>(
      `SELECT ${COLUMNS} FROM webhook_inbox WHERE ${where} ORDER BY id DESC OFFSET $5 LIMIT $6`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM webhook_inbox WHERE ${where}`,
      params,
    ),
  ]);
  return { entries: rows.map(toEntry), total: Number(counts[0]?.total ?? 0n) };
}

function toEntry(row: InboxRow): InboxEntry {
  return {
    id: String(row.id),
    eventId: row.event_id,
    attempt: row.attempt,
    clientId: row.client_id,
    type: row.type,
    url: row.url,
    requestHeaders: row.request_headers,
    requestBody: row.request_body,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    error: row.error,
    attemptedAt: row.attempted_at,
  };
}
