-- Hands each claim an item carries to the function its owner named (claim->>'handler'), in the
-- item's subtransaction, after the item moved its money: the owner of what was paid (a virtual
-- account, a USSD reference, a checkout session) accepts the payment or refuses it with
-- batch_refuse, which rolls the whole item back. The runner has locked each claim's 'lock'. The
-- item's own function decides when its claims run, so the module that moves the money never
-- names the modules that collect with it.
CREATE OR REPLACE FUNCTION batch_run_claims(p_claims jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_claim jsonb;
BEGIN
  FOR v_claim IN SELECT * FROM jsonb_array_elements(coalesce(p_claims, '[]')) LOOP
    EXECUTE format('SELECT %I($1)', v_claim->>'handler') USING v_claim;
  END LOOP;
END $$;
