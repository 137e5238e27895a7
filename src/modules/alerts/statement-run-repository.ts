import type { Queryable } from '../../db/db.ts';
import type { StatementMonth } from './statement-months.ts';

/** A month whose statements are being sent (alert_statement_months). */
export interface StatementRun {
  readonly month: StatementMonth;
  /** When the run began: the "generated" time of every statement of the month. */
  readonly generatedAt: Date;
  /** The last account id done: the next batch starts after it. */
  readonly afterAccountId: string;
}

/** The latest month a run was started for, if any. */
export async function latestRunMonth(db: Queryable): Promise<StatementMonth | undefined> {
  const rows = await db.query<{ month: string | null }>(
    `SELECT to_char(max(month), 'YYYY-MM-DD') AS month FROM alert_statement_months`,
  );
  return rows[0]?.month ?? undefined;
}

/** Starts the runs of these months; one another worker started first is left as it is. */
export async function startRuns(
  db: Queryable,
  months: readonly StatementMonth[],
  at: Date,
): Promise<void> {
  if (months.length === 0) {
    return;
  }
  await db.query(
    `INSERT INTO alert_statement_months (month, generated_at)
     SELECT m::date, $2 FROM unnest($1::text[]) AS m
     ON CONFLICT (month) DO NOTHING`,
    [months, at],
  );
}

/**
 * The oldest unfinished run up to `upTo`, locked for this transaction; one another worker holds
 * is skipped (it takes the next month, if one is open, or nothing).
 */
export async function lockOpenRun(
  tx: Queryable,
  upTo: StatementMonth,
): Promise<StatementRun | undefined> {
  const rows = await tx.query<{ month: string; generated_at: Date; after_account_id: string }>(
    `SELECT to_char(month, 'YYYY-MM-DD') AS month, generated_at, after_account_id
       FROM alert_statement_months
      WHERE completed_at IS NULL AND month <= $1::date
      ORDER BY month LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [upTo],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : { month: row.month, generatedAt: row.generated_at, afterAccountId: row.after_account_id };
}

/**
 * Records that these accounts get the month's statement; answers those recorded now (an account
 * recorded before, by any worker, is not again: the key decides).
 */
export async function recordStatements(
  tx: Queryable,
  month: StatementMonth,
  accountIds: readonly string[],
  at: Date,
): Promise<Set<string>> {
  if (accountIds.length === 0) {
    return new Set();
  }
  const rows = await tx.query<{ account_id: string }>(
    `INSERT INTO alert_statements (account_id, month, created_at)
     SELECT a, $2::date, $3 FROM unnest($1::text[]) AS a
     ON CONFLICT (account_id, month) DO NOTHING RETURNING account_id`,
    [accountIds, month, at],
  );
  return new Set(rows.map((row) => row.account_id));
}

/** Moves the run's cursor past a batch; the last batch completes it. */
export async function advanceRun(
  tx: Queryable,
  run: { month: StatementMonth; afterAccountId: string; sent: number; completedAt: Date | null },
): Promise<void> {
  await tx.query(
    `UPDATE alert_statement_months
        SET after_account_id = $2, accounts = accounts + $3, completed_at = $4
      WHERE month = $1::date`,
    [run.month, run.afterAccountId, run.sent, run.completedAt],
  );
}
