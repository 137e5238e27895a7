-- Stores a verification with the fee it charges (apply_batch, kind identityCharge in
-- identity-batch.ts), under the batch's lock of the debit account: the account must still be
-- Active, and a fee beyond its available balance refuses the item (the runner answers
-- INSUFFICIENT_FUNDS, and the verification is not stored).
CREATE OR REPLACE FUNCTION identity_charge_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_require_active(p_item->'verification'->>'debit_account_id', 'ACCOUNT_NOT_ACTIVE');
  INSERT INTO identity_verifications
    SELECT * FROM jsonb_populate_record(NULL::identity_verifications, p_item->'verification');
  IF p_item ? 'journal' THEN
    PERFORM ledger_post_json(p_item->'journal');
  END IF;
  RETURN jsonb_build_object('kind', 'charged');
END $$;
