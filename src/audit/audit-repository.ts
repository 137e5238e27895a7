import type { Queryable } from '../db/db.ts';

export interface AuditEvent {
  readonly at: Date;
  /** Who: `operator`, `client:<clientId>`, `app:<oauthClientId>` or `anonymous`. */
  readonly actor: string;
  /** What, as `area.verb`: `admin.request`, `token.refresh_reuse`, `webhook.settings` ... */
  readonly action: string;
  /** The object acted on (an id, an account number, a route), when there is one. */
  readonly target: string | null;
  /** `ok`, `refused`, an HTTP status ... */
  readonly outcome: string;
  readonly sourceIp: string | null;
  readonly requestId: string | null;
  /** Ids and outcomes only: never a secret, a token or a request body. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * Filled by the personal operator identities to come (none writes them yet): the
   * authenticated operator and session, and the record before and after the action.
   */
  readonly operatorId?: string | null | undefined;
  readonly sessionId?: string | null | undefined;
  readonly before?: Readonly<Record<string, unknown>> | null | undefined;
  readonly after?: Readonly<Record<string, unknown>> | null | undefined;
}

export interface StoredAuditEvent extends AuditEvent {
  readonly id: string;
}

/**
 * Appends events, in order, as the next links of the hash chain, in one call and one commit
 * (src/audit/sql/audit_append.sql): the audit log's group commit sends the events that arrive
 * together here.
 */
export async function appendAuditEvents(
  db: Queryable,
  events: readonly AuditEvent[],
): Promise<void> {
  const rows = events.map((event) => ({
    at: event.at.toISOString(),
    actor: event.actor,
    action: event.action,
    target: event.target,
    outcome: event.outcome,
    sourceIp: event.sourceIp,
    requestId: event.requestId,
    details: event.details,
    operatorId: event.operatorId ?? null,
    sessionId: event.sessionId ?? null,
    before: event.before ?? null,
    after: event.after ?? null,
  }));
  await db.query('SELECT audit_append($1::jsonb)', [JSON.stringify(rows)]);
}

export interface AuditQuery {
  readonly action?: string | undefined;
  readonly actor?: string | undefined;
  readonly target?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly offset: number;
  readonly limit: number;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  source_ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
  total: number;
}

/** Newest first, filtered; with the number of events that match. */
export async function listAuditEvents(
  db: Queryable,
  query: AuditQuery,
): Promise<{ events: StoredAuditEvent[]; total: number }> {
  const rows = await db.query<AuditRow>(
    `SELECT id::text, at, actor, action, target, outcome, source_ip, request_id, details,
            count(*) OVER ()::int AS total
       FROM audit_events
      WHERE ($1::text IS NULL OR action = $1 OR action LIKE $1 || '.%')
        AND ($2::text IS NULL OR actor = $2)
        AND ($3::text IS NULL OR target = $3)
        AND ($4::timestamptz IS NULL OR at >= $4)
        AND ($5::timestamptz IS NULL OR at <= $5)
      ORDER BY audit_events.id DESC
      OFFSET $6 LIMIT $7`,
    [
      query.action ?? null,
      query.actor ?? null,
      query.target ?? null,
      query.from ?? null,
      query.to ?? null,
      query.offset,
      query.limit,
    ],
  );
  return {
    total: rows[0]?.total ?? 0,
    events: rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      outcome: row.outcome,
      sourceIp: row.source_ip,
      requestId: row.request_id,
      details: row.details,
    })),
  };
}
