-- A batch of VAS placements ('place') or settlements ('settle') in one call, as
-- apply_transfer_batch does for transfers: every account (and daily limit key) locked once, in
-- one global order; each item in its own subtransaction, so one refusal or failure answers that
-- item alone.
CREATE OR REPLACE FUNCTION apply_vas_batch(p_kind text, p_items jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_results jsonb := '[]';
  v_code text;
  v_message text;
BEGIN
  PERFORM ledger_lock_batch(ARRAY(
    SELECT jsonb_array_elements_text(item->'lockAccountIds')
      FROM jsonb_array_elements(p_items) AS item));
  FOR v_item IN SELECT * FROM jsonb_array_elements(p_items) LOOP
    BEGIN
      v_results := v_results || jsonb_build_array(CASE p_kind
        WHEN 'place' THEN vas_place_one(v_item)
        WHEN 'settle' THEN vas_settle_one(v_item)
      END);
    EXCEPTION WHEN SQLSTATE 'OTP01' THEN
      GET STACKED DIAGNOSTICS v_code = MESSAGE_TEXT, v_message = PG_EXCEPTION_DETAIL;
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', v_code, 'message', nullif(v_message, '')));
    WHEN SQLSTATE 'OIB01' THEN
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', 'INSUFFICIENT_FUNDS', 'message', NULL));
    WHEN OTHERS THEN
      IF SQLSTATE IN ('40P01', '40001') THEN
        RAISE;
      END IF;
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'failed', 'sqlstate', SQLSTATE, 'message', SQLERRM));
    END;
  END LOOP;
  RETURN v_results;
END $$;
