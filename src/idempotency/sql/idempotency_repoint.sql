-- A key claimed in this transaction names another resource (the earlier one its request
-- repeats).
CREATE OR REPLACE FUNCTION idempotency_repoint(
  p_client_id text, p_scope text, p_key text, p_resource_id text
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_requests SET resource_id = p_resource_id
     WHERE client_id = p_client_id AND scope = p_scope AND key = p_key;
END $$;
