-- Saves a beneficiary, or refreshes its name: called by saveBeneficiary and by the transfer
-- batch functions when a transfer saves its beneficiary.
CREATE OR REPLACE FUNCTION beneficiary_save(
  p_id text, p_client_id text, p_bank_code text, p_bank_name text, p_account_number text,
  p_account_name text, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO beneficiaries (id, client_id, bank_code, bank_name, account_number, account_name,
        created_at, updated_at) VALUES (p_id, p_client_id, p_bank_code, p_bank_name,
        p_account_number, p_account_name, p_at, p_at)
    ON CONFLICT (client_id, bank_code, account_number)
      DO UPDATE SET account_name = EXCLUDED.account_name, updated_at = EXCLUDED.updated_at;
END $$;
