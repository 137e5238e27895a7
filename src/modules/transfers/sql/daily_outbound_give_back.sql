-- Gives an amount back to the day it was counted in (a failed NIP transfer or purchase), under
-- the key's batch lock, as daily_outbound_add.
CREATE OR REPLACE FUNCTION daily_outbound_give_back(p_key text, p_day date, p_amount bigint) RETURNS void
LANGUAGE sql AS $$
  UPDATE daily_outbound_totals SET total_kobo = total_kobo - p_amount
   WHERE limit_key = p_key AND day = p_day
$$;
