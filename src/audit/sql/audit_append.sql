-- Appends events to the audit trail, in the order given, as the next links of its hash chain.
-- The row lock on audit_chain_head makes appends take turns, from every connection and every
-- process: each call reads the head's hash under the lock, and for each event takes the next
-- id, hashes the row with it (audit_event_hash) and inserts it; then it moves the head. So ids
-- grow in chain order and the chain has one line. The lock is held to the end of the caller's
-- transaction, its commit included, which is why the audit log sends the events that arrive
-- together as one call (a group commit): one lock and one commit for all of them. Never call
-- it inside a long transaction.
-- p_events: [{at, actor, action, target, outcome, sourceIp, requestId, details, operatorId,
-- sessionId, before, after}], `at` an ISO 8601 time, `details` an object, the rest text or null.
CREATE OR REPLACE FUNCTION audit_append(p_events jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_hash text;
  v_id bigint;
  v_event jsonb;
  v_at timestamptz;
  v_before jsonb;
  v_after jsonb;
BEGIN
  SELECT hash INTO STRICT v_hash FROM audit_chain_head FOR UPDATE;
  FOR v_event IN SELECT value FROM jsonb_array_elements(p_events) LOOP
    v_id := nextval(pg_get_serial_sequence('audit_events', 'id'));
    v_at := (v_event->>'at')::timestamptz;
    v_before := nullif(v_event->'before', 'null'::jsonb);
    v_after := nullif(v_event->'after', 'null'::jsonb);
    INSERT INTO audit_events (id, at, actor, action, target, outcome, source_ip, request_id,
        details, operator_id, session_id, before_state, after_state, prev_hash, hash)
      OVERRIDING SYSTEM VALUE
      VALUES (v_id, v_at, v_event->>'actor', v_event->>'action', v_event->>'target',
        v_event->>'outcome', v_event->>'sourceIp', v_event->>'requestId', v_event->'details',
        v_event->>'operatorId', v_event->>'sessionId', v_before, v_after, v_hash,
        audit_event_hash(v_hash, v_id, v_at, v_event->>'actor', v_event->>'action',
          v_event->>'target', v_event->>'outcome', v_event->>'sourceIp', v_event->>'requestId',
          v_event->'details', v_event->>'operatorId', v_event->>'sessionId', v_before, v_after))
      RETURNING hash INTO v_hash;
  END LOOP;
  UPDATE audit_chain_head SET last_id = v_id, hash = v_hash WHERE v_id IS NOT NULL;
END $$;
