-- Refuses the VAS batch item being applied (apply_vas_batch answers it {kind: refused}).
CREATE OR REPLACE FUNCTION vas_refuse(p_code text, p_message text DEFAULT '') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'OTP01', MESSAGE = p_code, DETAIL = coalesce(p_message, '');
END $$;
