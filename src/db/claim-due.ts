import type { DueClaim } from '../shared/poll-loop.ts';
import type { Queryable, SqlParam } from './db.ts';

/**
 * A table whose rows wait for someone to ask a provider about them (or send them) again, as its
 * owning repository describes it to `claimDue`. Every name and condition here is a constant of
 * that repository, never input: the statement is composed from them.
 */
export interface DueRows {
  /** The owner's table (scripts/check-table-ownership.ts reads this property). */
  readonly table: string;
  /** When a row is next due: rows are claimed oldest first by it. */
  readonly dueColumn: string;
  /** Which rows still wait, over the table's own columns: `status = 'Pending'`. */
  readonly waiting: string;
  /**
   * Where the claim is held when the due time must stay as it is (a webhook event keeps its
   * next attempt time, which its retry schedule counts from). Without one, the claim pushes the
   * due time itself forward.
   */
  readonly lockColumn?: string;
  /** A counter every claim adds one to (a transfer's status queries, an event's attempts). */
  readonly countIn?: string;
  /**
   * A claimed row for which this holds is never due again (its due time becomes NULL); it may
   * use the claim's extra parameters, $4 onwards. Only where the claim moves the due time.
   */
  readonly letGoWhen?: string;
  /** Default `*`. */
  readonly returning?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Claims up to `limit` rows due at `now` for this worker: each is hidden from the others for
 * `claimSeconds` (its due time, or its lock, moves that far ahead) while the worker asks about
 * it, and is due again after unless the worker settled or rescheduled it meanwhile. FOR UPDATE
 * SKIP LOCKED lets several workers, in several processes, claim disjoint rows at once.
 */
export function claimDue<Row>(
  db: Queryable,
  rows: DueRows,
  claim: DueClaim,
  params: readonly SqlParam[] = [],
): Promise<Row[]> {
  return db.query<Row>(claimDueStatement(rows), [
    claim.now,
    claim.limit,
    claim.claimSeconds,
    ...params,
  ]);
}

function claimDueStatement(rows: DueRows): string {
  const { table, dueColumn: due, lockColumn: lock, countIn } = rows;
  for (const name of [table, due, lock, countIn]) {
    if (name !== undefined && !IDENTIFIER.test(name)) {
      throw new Error(`claimDue: ${name} is not a plain SQL name`);
    }
  }
  if (lock !== undefined && rows.letGoWhen !== undefined) {
    throw new Error('claimDue: letGoWhen needs the claim to move the due time, not a lock');
  }
  const until = '$1::timestamptz + make_interval(secs => $3)';
  const hold =
    lock !== undefined
      ? `${lock} = ${until}`
      : rows.letGoWhen !== undefined
        ? `${due} = CASE WHEN ${rows.letGoWhen} THEN NULL ELSE ${until} END`
        : `${due} = ${until}`;
  const sets = countIn === undefined ? hold : `${countIn} = ${countIn} + 1, ${hold}`;
  const unlocked = lock === undefined ? '' : ` AND (${lock} IS NULL OR ${lock} <= $1)`;
  return `UPDATE ${table} SET ${sets}
      WHERE id IN (SELECT id FROM ${table}
                    WHERE (${rows.waiting}) AND ${due} <= $1${unlocked}
                    ORDER BY ${due} LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING ${rows.returning ?? '*'}`;
}
