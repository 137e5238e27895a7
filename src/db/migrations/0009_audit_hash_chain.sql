-- The audit trail as a hash chain (docs/adr/0008-hash-chained-audit-trail.md): every row carries
-- the hash of the row before it (prev_hash) and its own (hash), a SHA-256 over its fields and
-- prev_hash in the encoding docs/security.md ("The hash chain") spells out; the first row's
-- prev_hash is 64 zeros. audit_append (src/audit/sql/) appends under the row lock of
-- audit_chain_head, so rows from any number of processes form one line, in id order.
--
-- operator_id, session_id, before_state and after_state are for the personal operator
-- identities to come (the authenticated operator, the session, the record before and after an
-- action); nothing fills them yet, and the hash covers them already (NULL is encoded as such).
ALTER TABLE audit_events
  ADD COLUMN operator_id text,
  ADD COLUMN session_id text,
  ADD COLUMN before_state jsonb,
  ADD COLUMN after_state jsonb,
  ADD COLUMN prev_hash text,
  ADD COLUMN hash text;

-- The chain's head: the last row appended and its hash, one row, locked by every append.
CREATE TABLE audit_chain_head (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  last_id  bigint,
  hash     text NOT NULL
);

-- The rows written before the chain are chained here, in id order (the encoding of
-- audit_event_hash, written inline: a migration calls no function file). The append-only
-- triggers (src/audit/sql/audit_events_append_only.sql) refuse the update, so they are off for
-- this one statement; a fresh database has none yet.
ALTER TABLE audit_events DISABLE TRIGGER USER;

-- The walk starts from a seed row (id 0, whose hash is the genesis) and takes the next row by
-- the primary key each step, so it reads each row once.
WITH RECURSIVE chain AS (
  SELECT 0::bigint AS id, NULL::text AS prev_hash, repeat('0', 64) AS hash
  UNION ALL
  SELECT next_row.id, chain.hash,
         encode(sha256(convert_to('64:' || chain.hash || ',' || next_row.fields, 'UTF8')), 'hex')
    FROM chain
    CROSS JOIN LATERAL (
      SELECT e.id,
             octet_length(e.id::text) || ':' || e.id::text || ','
             || octet_length(at_text) || ':' || at_text || ','
             || octet_length(e.actor) || ':' || e.actor || ','
             || octet_length(e.action) || ':' || e.action || ','
             || coalesce(octet_length(e.target) || ':' || e.target || ',', '-,')
             || octet_length(e.outcome) || ':' || e.outcome || ','
             || coalesce(octet_length(e.source_ip) || ':' || e.source_ip || ',', '-,')
             || coalesce(octet_length(e.request_id) || ':' || e.request_id || ',', '-,')
             || octet_length(e.details::text) || ':' || e.details::text || ','
             || '-,-,-,-,' AS fields
        FROM audit_events e
       CROSS JOIN LATERAL
             (SELECT to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_text) t
       WHERE e.id > chain.id ORDER BY e.id LIMIT 1
    ) next_row
)
UPDATE audit_events e SET prev_hash = chain.prev_hash, hash = chain.hash
  FROM chain WHERE e.id = chain.id AND chain.id > 0;

ALTER TABLE audit_events ENABLE TRIGGER USER;

ALTER TABLE audit_events ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL;

INSERT INTO audit_chain_head (last_id, hash)
SELECT last_row.id, coalesce(last_row.hash, repeat('0', 64))
  FROM (SELECT 1) one
  LEFT JOIN LATERAL (SELECT id, hash FROM audit_events ORDER BY id DESC LIMIT 1) last_row ON true;
