-- Kobo as naira text, as koboToNairaText (src/shared/money.ts) writes it: `-1234.50`, or with
-- thousands grouped, `-1,234.50`. For documents PostgreSQL writes whole (statement exports), so
-- that a million amounts are never a million JavaScript strings to collect.
CREATE OR REPLACE FUNCTION ledger_naira_text(p_kobo bigint, p_grouped boolean) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN p_kobo < 0 THEN '-' ELSE '' END
    || CASE WHEN p_grouped
         THEN regexp_replace((abs(p_kobo) / 100)::text, '(\d)(?=(\d{3})+$)', '\1,', 'g')
         ELSE (abs(p_kobo) / 100)::text END
    || '.' || lpad((abs(p_kobo) % 100)::text, 2, '0')
$$;
