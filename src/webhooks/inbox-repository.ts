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
 * Records a round's attempts, then lets go of the named clients' entries beyond the newest
 * INBOX_KEEP_PER_CLIENT (each of the round's clients unless told which: the worker trims a client
 * only every so many entries, inbox-trim.ts). One trim per client per round: trimming with every
 * entry made each concurrent attempt of a busy client delete the same oldest rows, one waiting on
 * the other's row locks (docs/benchmarks.md). Run both in one transaction, so one commit covers
 * the round.
 */
export async function recordInboxEntries(
  db: Queryable,
  entries: readonly Omit<InboxEntry, 'id'>[],
  trimClients: readonly string[] = [...new Set(entries.map((entry) => entry.clientId))],
): Promise<void> {
  if (entries.length === 0) {
    return;
  }
  await db.query(
    `INSERT INTO webhook_inbox (event_id, attempt, client_id, type, url, request_headers,
         request_body, response_status, response_body, error, attempted_at)
     SELECT e.event_id, e.attempt, e.client_id, e.type, e.url, e.request_headers, e.request_body,
            e.response_status, e.response_body, e.error, e.attempted_at
       FROM json_to_recordset($1::json) AS e(event_id text, attempt int, client_id text,
           type text, url text, request_headers json, request_body text, response_status int,
           response_body text, error text, attempted_at timestamptz)`,
    [JSON.stringify(entries.map(inboxRow))],
  );
  if (trimClients.length === 0) {
    return;
  }
  // SKIP LOCKED: another worker trimming the same clients at once deletes those rows itself;
  // waiting for it instead let two workers' rounds of several clients deadlock.
  await db.query(
    `DELETE FROM webhook_inbox WHERE id IN (
       SELECT w.id FROM webhook_inbox w
         JOIN (SELECT c.client_id,
                      (SELECT id FROM webhook_inbox WHERE client_id = c.client_id
                        ORDER BY id DESC OFFSET $2 LIMIT 1) AS oldest_kept
                 FROM unnest($1::text[]) AS c(client_id)) k
           ON w.client_id = k.client_id AND w.id < k.oldest_kept
          FOR UPDATE OF w SKIP LOCKED)`,
    [trimClients, INBOX_KEEP_PER_CLIENT - 1],
  );
}

function inboxRow(entry: Omit<InboxEntry, 'id'>) {
  return {
    event_id: entry.eventId,
    attempt: entry.attempt,
    client_id: entry.clientId,
    type: entry.type,
    url: entry.url,
    request_headers: entry.requestHeaders,
    request_body: entry.requestBody,
    response_status: entry.responseStatus,
    response_body: entry.responseBody,
    error: entry.error,
    attempted_at: entry.attemptedAt,
  };
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
