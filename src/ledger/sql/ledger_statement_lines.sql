-- The entries numbered p_first to p_last of an account, oldest first, as the lines of its PDF
-- statement (docs/statements.md), and the batch's totals. One text a batch, cells separated by
-- chr(31), lines by chr(30): number, date and minute in Lagos, narration, reference, debit,
-- credit and balance after (naira, grouped). PostgreSQL writes the text so that the export's
-- process handles a few strings a line rather than a row object, a Date, amounts and cells,
-- whose garbage V8 promoted faster than it collected it (docs/benchmarks.md). The two
-- separators are taken out of the text the customer's counterparties wrote.
CREATE OR REPLACE FUNCTION ledger_statement_lines(
  p_account_id text,
  p_first bigint,
  p_last bigint,
  OUT lines text,
  OUT credits_kobo bigint,
  OUT credit_count bigint,
  OUT debits_kobo bigint,
  OUT debit_count bigint
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(concat_ws(chr(31),
      e.seq::text,
      -- Africa/Lagos is UTC+01:00 all year: a fixed offset needs no time-zone data.
      to_char((e.created_at AT TIME ZONE 'UTC') + interval '1 hour', 'YYYY-MM-DD HH24:MI'),
      translate(e.narration, chr(30) || chr(31), '  '),
      translate(coalesce(j.reference, ''), chr(30) || chr(31), '  '),
      CASE WHEN e.amount_kobo < 0 THEN ledger_naira_text(-e.amount_kobo, true) ELSE '' END,
      CASE WHEN e.amount_kobo > 0 THEN ledger_naira_text(e.amount_kobo, true) ELSE '' END,
      ledger_naira_text(e.balance_after_kobo, true)), chr(30) ORDER BY e.seq), ''),
    coalesce(sum(e.amount_kobo) FILTER (WHERE e.amount_kobo > 0), 0)::bigint,
    count(*) FILTER (WHERE e.amount_kobo > 0),
    coalesce(-sum(e.amount_kobo) FILTER (WHERE e.amount_kobo < 0), 0)::bigint,
    count(*) FILTER (WHERE e.amount_kobo < 0)
    FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
   WHERE e.account_id = p_account_id AND e.seq BETWEEN p_first AND p_last
$$;
