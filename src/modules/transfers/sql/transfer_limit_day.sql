-- The day a daily transfer limit counts in is the bank's business day in Nigeria: it rolls over
-- at midnight Africa/Lagos (WAT, UTC+1 all year), not at midnight UTC. The day comes from the
-- time the TypeScript passes in (the bank's clock, which in the sandbox is the test clock),
-- never from the database's now().
CREATE OR REPLACE FUNCTION transfer_limit_day(p_at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE AS $$ SELECT (p_at AT TIME ZONE 'Africa/Lagos')::date $$;
