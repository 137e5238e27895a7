-- Adds an amount to a daily limit key's day and answers the new total, for other modules' batch
-- functions (VAS purchases count with transfers). The caller holds the key's batch lock
-- (ledger_lock_batch, with its accounts' locks), so no other batch writes the row meanwhile and
-- the total it answers is exact.
CREATE OR REPLACE FUNCTION daily_outbound_add(p_key text, p_day date, p_amount bigint) RETURNS bigint
LANGUAGE sql AS $$
  INSERT INTO daily_outbound_totals AS d (limit_key, day, total_kobo)
    VALUES (p_key, p_day, p_amount)
    ON CONFLICT (limit_key, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
    RETURNING total_kobo
$$;
