-- Closes a virtual account for payments when its purpose is gone elsewhere: a checkout session
-- (modules/checkout) whose order was paid by another method calls it in that payment's own
-- batch item. Deleted, as DELETE /virtual-accounts/:id leaves it: it takes no payment and reads
-- as unknown; the payments it took stay. A Paid or Deleted account is left as it is. A payment
-- into it at the same moment waits on the row: it lands first, or is refused after.
CREATE OR REPLACE FUNCTION virtual_account_close(p_id text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE virtual_accounts SET status = 'Deleted', updated_at = p_at
   WHERE id = p_id AND status = 'Active';
END $$;
