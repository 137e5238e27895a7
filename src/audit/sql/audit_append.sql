-- Appends one event to the audit trail as the next link of its hash chain and answers its id.
-- The row lock on audit_chain_head makes appends take turns, from every connection and every
-- process: each reads the head's hash under the lock, takes the next id, hashes the row with
-- it (audit_event_hash) and moves the head, so ids grow in chain order and the chain has one
-- line. The lock is held to the end of the caller's transaction: append in a short one of its
-- own (the audit log does: one statement), never inside a long one.
CREATE OR REPLACE FUNCTION audit_append(
  p_at timestamptz, p_actor text, p_action text, p_target text, p_outcome text,
  p_source_ip text, p_request_id text, p_details jsonb, p_operator_id text, p_session_id text,
  p_before jsonb, p_after jsonb
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_prev_hash text;
  v_id bigint;
  v_hash text;
BEGIN
  SELECT hash INTO STRICT v_prev_hash FROM audit_chain_head FOR UPDATE;
  v_id := nextval(pg_get_serial_sequence('audit_events', 'id'));
  v_hash := audit_event_hash(v_prev_hash, v_id, p_at, p_actor, p_action, p_target, p_outcome,
    p_source_ip, p_request_id, p_details, p_operator_id, p_session_id, p_before, p_after);
  INSERT INTO audit_events (id, at, actor, action, target, outcome, source_ip, request_id,
      details, operator_id, session_id, before_state, after_state, prev_hash, hash)
    OVERRIDING SYSTEM VALUE
    VALUES (v_id, p_at, p_actor, p_action, p_target, p_outcome, p_source_ip, p_request_id,
      p_details, p_operator_id, p_session_id, p_before, p_after, v_prev_hash, v_hash);
  UPDATE audit_chain_head SET last_id = v_id, hash = v_hash;
  RETURN v_id;
END $$;
