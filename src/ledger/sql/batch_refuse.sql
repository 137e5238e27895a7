-- Refuses the batch item being applied (apply_batch answers it {kind: refused, code, message}
-- and rolls back that item alone). MESSAGE is our error code, DETAIL its message (or empty).
CREATE OR REPLACE FUNCTION batch_refuse(p_code text, p_message text DEFAULT '') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'OTP01', MESSAGE = p_code, DETAIL = coalesce(p_message, '');
END $$;
