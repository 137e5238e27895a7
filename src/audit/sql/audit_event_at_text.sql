-- An audit row's time as its hash covers it and the export shows it: UTC, microseconds, whatever
-- the session's time zone (2026-03-02T09:00:00.000000Z).
CREATE OR REPLACE FUNCTION audit_event_at_text(p_at timestamptz) RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;
