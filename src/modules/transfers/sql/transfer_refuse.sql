-- A refusal of one item of a batch. MESSAGE is the error code, DETAIL its message (or empty).
-- SQLSTATE OTP01 is caught per item; anything else fails the batch, which the caller retries
-- (deadlock) or reports. The collections' functions refuse a payment through it too.
CREATE OR REPLACE FUNCTION transfer_refuse(p_code text, p_message text DEFAULT '') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'OTP01', MESSAGE = p_code, DETAIL = coalesce(p_message, '');
END $$;
