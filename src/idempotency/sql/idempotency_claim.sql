-- Claims an Idempotency-Key for a resource, or answers the claim that holds it: called by the
-- batch functions of the modules that honour the header, in the same transaction as the effect
-- (idempotencyClaimJson in idempotency.ts encodes what they pass).
CREATE OR REPLACE FUNCTION idempotency_claim(
  p_client_id text, p_scope text, p_key text, p_request_hash text, p_resource_id text,
  p_created_at timestamptz,
  OUT claimed boolean, OUT request_hash text, OUT resource_id text
)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO idempotency_requests (client_id, scope, key, request_hash, resource_id, created_at)
    VALUES (p_client_id, p_scope, p_key, p_request_hash, p_resource_id, p_created_at)
    ON CONFLICT DO NOTHING;
  claimed := FOUND;
  IF NOT claimed THEN
    -- A concurrent claim of the key waited for its transaction above; its row is visible now.
    SELECT r.request_hash, r.resource_id INTO request_hash, resource_id
      FROM idempotency_requests r
     WHERE r.client_id = p_client_id AND r.scope = p_scope AND r.key = p_key;
  END IF;
END $$;
