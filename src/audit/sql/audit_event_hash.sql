-- The hash of an audit row (docs/security.md, "The hash chain"): the lowercase hex SHA-256 of
-- the UTF-8 bytes of its prev_hash and its fields, in this order, each as a netstring
-- (`<length in bytes>:<text>,`) and a NULL as `-,`: prev_hash, id, at (audit_event_at_text),
-- actor, action, target, outcome, source_ip, request_id, details, operator_id, session_id,
-- before_state, after_state; the JSON columns as PostgreSQL prints a jsonb (`details::text`),
-- which the export carries verbatim. src/audit/audit-chain.ts computes the same in TypeScript
-- (audit:verify trusts no function of the database it checks); migration 0009 inlines it.
CREATE OR REPLACE FUNCTION audit_event_hash(
  p_prev_hash text, p_id bigint, p_at timestamptz, p_actor text, p_action text, p_target text,
  p_outcome text, p_source_ip text, p_request_id text, p_details jsonb, p_operator_id text,
  p_session_id text, p_before jsonb, p_after jsonb
) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(
           coalesce(octet_length(p_prev_hash) || ':' || p_prev_hash || ',', '-,') ||
           coalesce(octet_length(p_id::text) || ':' || p_id::text || ',', '-,') ||
           coalesce(octet_length(audit_event_at_text(p_at)) || ':' || audit_event_at_text(p_at) || ',', '-,') ||
           coalesce(octet_length(p_actor) || ':' || p_actor || ',', '-,') ||
           coalesce(octet_length(p_action) || ':' || p_action || ',', '-,') ||
           coalesce(octet_length(p_target) || ':' || p_target || ',', '-,') ||
           coalesce(octet_length(p_outcome) || ':' || p_outcome || ',', '-,') ||
           coalesce(octet_length(p_source_ip) || ':' || p_source_ip || ',', '-,') ||
           coalesce(octet_length(p_request_id) || ':' || p_request_id || ',', '-,') ||
           coalesce(octet_length(p_details::text) || ':' || p_details::text || ',', '-,') ||
           coalesce(octet_length(p_operator_id) || ':' || p_operator_id || ',', '-,') ||
           coalesce(octet_length(p_session_id) || ':' || p_session_id || ',', '-,') ||
           coalesce(octet_length(p_before::text) || ':' || p_before::text || ',', '-,') ||
           coalesce(octet_length(p_after::text) || ':' || p_after::text || ',', '-,'),
         'UTF8')), 'hex')
$$;
