-- A lien placed by a recall or a reversal is paid in full: ledger_fill_liens calls this (the
-- handler its on_filled names) in the transaction of the credit that paid it, with the lien's
-- amount, and the `account.lien` event (filled) prepared when the lien was placed goes out.
CREATE OR REPLACE FUNCTION transfer_lien_filled(p_notice jsonb, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM transfer_lien_event(p_notice->'event', p_notice->>'accountId',
    (p_notice->>'amountKobo')::bigint, 0, 0, p_at);
END $$;
