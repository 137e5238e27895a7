-- The entries numbered p_first to p_last of an account, oldest first, as the rows of its CSV
-- statement (docs/statements.md): entryNumber, date (Lagos, offset written), type, amount,
-- balanceAfter, narration, reference, transferId, journalId; CRLF after each row. One text a
-- batch: the export's process handles one string per thousand rows instead of a row object, a
-- Date and eight strings per row, whose garbage, promoted by V8 faster than it collected it,
-- grew the server by over 100 MiB per million entries (docs/benchmarks.md).
CREATE OR REPLACE FUNCTION ledger_statement_csv(p_account_id text, p_first bigint, p_last bigint)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(concat_ws(',',
      e.seq::text,
      -- Africa/Lagos is UTC+01:00 all year: a fixed offset needs no time-zone data.
      to_char((e.created_at AT TIME ZONE 'UTC') + interval '1 hour',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"+01:00"'),
      CASE WHEN e.amount_kobo > 0 THEN 'Credit' ELSE 'Debit' END,
      ledger_naira_text(abs(e.amount_kobo), false),
      ledger_naira_text(e.balance_after_kobo, false),
      ledger_csv_cell(e.narration),
      ledger_csv_cell(coalesce(j.reference, '')),
      ledger_csv_cell(coalesce(j.transfer_id, '')),
      ledger_csv_cell(e.journal_id)) || E'\r\n', '' ORDER BY e.seq), '')
    FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
   WHERE e.account_id = p_account_id AND e.seq BETWEEN p_first AND p_last
$$;
