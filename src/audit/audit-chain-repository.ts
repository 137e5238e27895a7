import type { Queryable } from '../db/db.ts';

/**
 * One audit row as its hash covers it: every field as the text the encoding hashes
 * (docs/security.md, "The hash chain"), NULL as null, with the row's prev_hash and hash. What
 * audit:verify recomputes and what the export writes out, so an auditor hashes the export's
 * cells as they stand.
 */
export interface ChainRow {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly target: string | null;
  readonly outcome: string;
  readonly sourceIp: string | null;
  readonly requestId: string | null;
  readonly details: string;
  readonly operatorId: string | null;
  readonly sessionId: string | null;
  readonly before: string | null;
  readonly after: string | null;
  readonly prevHash: string;
  readonly hash: string;
}

/** The chain's head as audit_append left it: the last row appended (null: none yet), its hash. */
export interface ChainHead {
  readonly lastId: string | null;
  readonly hash: string;
}

/** Undefined when the row is gone: migration 0009 writes it and only tampering removes it. */
export async function readChainHead(db: Queryable): Promise<ChainHead | undefined> {
  const [head] = await db.query<ChainHead>(
    'SELECT last_id::text AS "lastId", hash FROM audit_chain_head',
  );
  return head;
}

/** Rows with afterId < id <= uptoId, in id order, at most `limit`: one batch of a walk. */
export function readChainRows(
  db: Queryable,
  range: { readonly afterId: string; readonly uptoId: string; readonly limit: number },
): Promise<ChainRow[]> {
  return db.query<ChainRow>(
    `SELECT id::text, audit_event_at_text(at) AS at, actor, action, target, outcome,
            source_ip AS "sourceIp", request_id AS "requestId", details::text AS details,
            operator_id AS "operatorId", session_id AS "sessionId",
            before_state::text AS before, after_state::text AS after,
            prev_hash AS "prevHash", hash
       FROM audit_events
      WHERE id > $1::bigint AND id <= $2::bigint
      ORDER BY audit_events.id
      LIMIT $3`,
    [range.afterId, range.uptoId, range.limit],
  );
}

/**
 * The ids an export of [from, to] covers: from the first row written at or after `from` to the
 * last written at or before `to`, every row between included (so the exported chain has no
 * hole, whatever the clocks of the processes that wrote it); null when no row is in range.
 */
export async function chainIdRange(
  db: Queryable,
  range: { readonly from: Date | undefined; readonly to: Date | undefined },
): Promise<{ firstId: string; lastId: string } | null> {
  const [row] = await db.query<{ firstId: string | null; lastId: string | null }>(
    `SELECT (SELECT min(id) FROM audit_events
              WHERE $1::timestamptz IS NULL OR at >= $1)::text AS "firstId",
            (SELECT max(id) FROM audit_events
              WHERE $2::timestamptz IS NULL OR at <= $2)::text AS "lastId"`,
    [range.from ?? null, range.to ?? null],
  );
  if (
    row === undefined ||
    row.firstId === null ||
    row.lastId === null ||
    BigInt(row.firstId) > BigInt(row.lastId)
  ) {
    return null;
  }
  return { firstId: row.firstId, lastId: row.lastId };
}
