import type { Db } from '../db/db.ts';

/**
 * The ledger invariants over every account and entry, each as a count of violations (all must be
 * zero), for the bench and the concurrency and crash tests. It reads every entry: a few seconds
 * per million on PostgreSQL.
 * Uniqueness of (account, seq) and (account, is_credit, direction_seq) comes from the indexes;
 * with it, "min is 1 and max equals the count" means "numbered 1..n without gaps".
 */
const CHECKS: Readonly<Record<string, string>> = {
  unbalancedJournals: `
    SELECT count(*) FROM (
      SELECT journal_id FROM ledger_entries GROUP BY journal_id
      HAVING sum(amount_kobo) <> 0 OR count(*) < 2) bad`,
  journalsWithoutEntries: `
    SELECT count(*) FROM ledger_journals j
     WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.journal_id = j.id)`,
  accountCountersWrong: `
    SELECT count(*) FROM ledger_accounts l
      LEFT JOIN (
        SELECT account_id, count(*) AS n, min(seq) AS min_seq, max(seq) AS max_seq,
               sum(amount_kobo) AS total, max(created_at) AS last_at,
               count(*) FILTER (WHERE is_credit) AS credits,
               count(*) FILTER (WHERE NOT is_credit) AS debits,
               min(direction_seq) FILTER (WHERE is_credit) AS min_credit_seq,
               max(direction_seq) FILTER (WHERE is_credit) AS max_credit_seq,
               min(direction_seq) FILTER (WHERE NOT is_credit) AS min_debit_seq,
               max(direction_seq) FILTER (WHERE NOT is_credit) AS max_debit_seq
          FROM ledger_entries GROUP BY account_id) s ON s.account_id = l.id
     WHERE coalesce(s.n, 0) <> l.entry_count
        OR coalesce(s.max_seq, 0) <> l.entry_count OR coalesce(s.min_seq, 1) <> 1
        OR coalesce(s.total, 0) <> l.balance_kobo
        OR coalesce(s.credits, 0) <> l.credit_count OR coalesce(s.debits, 0) <> l.debit_count
        OR coalesce(s.max_credit_seq, 0) <> l.credit_count OR coalesce(s.min_credit_seq, 1) <> 1
        OR coalesce(s.max_debit_seq, 0) <> l.debit_count OR coalesce(s.min_debit_seq, 1) <> 1
        OR s.last_at IS DISTINCT FROM l.last_entry_at`,
  runningBalanceOrTimeWrong: `
    SELECT count(*) FROM (
      SELECT balance_after_kobo, amount_kobo, created_at,
             lag(balance_after_kobo, 1, 0::bigint) OVER w AS previous_balance,
             lag(created_at) OVER w AS previous_at
        FROM ledger_entries WINDOW w AS (PARTITION BY account_id ORDER BY seq)) x
     WHERE balance_after_kobo <> previous_balance + amount_kobo OR created_at < previous_at`,
  overdrawnEntries: `
    SELECT count(*) FROM ledger_entries e JOIN ledger_accounts l ON l.id = e.account_id
     WHERE NOT l.allow_negative AND e.balance_after_kobo < 0`,
  // An account's lien total is what its active liens still owe.
  lienTotalsWrong: `
    SELECT count(*) FROM ledger_accounts l
      LEFT JOIN (SELECT account_id, sum(outstanding_kobo) AS owed FROM ledger_liens
                  WHERE status = 'active' GROUP BY account_id) o ON o.account_id = l.id
     WHERE l.lien_kobo <> coalesce(o.owed, 0)`,
  // What customers owe under liens is what the lien receivable GL is owed (it runs negative).
  lienReceivableWrong: `
    SELECT count(*) FROM ledger_accounts g
     WHERE g.id = 'gl.lien_receivable' AND g.balance_kobo <> -(SELECT coalesce(sum(outstanding_kobo), 0)
       FROM ledger_liens WHERE status = 'active')`,
  // A lien is paid first: an account that owes one has nothing available left.
  liensWithFundsLeft: `
    SELECT count(*) FROM ledger_accounts WHERE lien_kobo > 0 AND balance_kobo - held_kobo > 0`,
};

export type LedgerViolations = Record<string, number>;

export async function verifyLedger(db: Db): Promise<LedgerViolations> {
  const violations: LedgerViolations = {};
  for (const [name, sql] of Object.entries(CHECKS)) {
    const rows = await db.query<{ count: bigint }>(sql);
    violations[name] = Number(rows[0]?.count ?? -1);
  }
  return violations;
}
