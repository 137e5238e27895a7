-- What an account's auto-sweep moves now, to the destination the service found for it, read
-- under the batch's locks of both accounts (the credit has just landed): what the account holds
-- less what is held and the retained amount of its settings as they stand now. NULL (nothing is
-- swept) when the sweep is off or points elsewhere now, when either account is not Active or the
-- destination is another client's, or when the amount is not above zero or is below the minimum.
CREATE OR REPLACE FUNCTION account_sweep_amount(p_account_id text, p_destination_id text)
RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT amount FROM (
    SELECT b.balance_kobo - b.held_kobo - (s.auto_sweep_details->>'retainKobo')::bigint AS amount,
           (s.auto_sweep_details->>'minimumKobo')::bigint AS minimum
      FROM accounts s
      JOIN ledger_account_balances b ON b.account_id = s.id
      JOIN accounts d ON d.id = p_destination_id AND d.client_id = s.client_id
                     AND d.status = 'Active' AND d.id <> s.id
                     AND d.account_number = s.auto_sweep_details->>'destinationAccountNumber'
     WHERE s.id = p_account_id AND s.status = 'Active' AND s.auto_sweep
  ) AS sweep
  WHERE amount > 0 AND amount >= minimum
$$;
