-- Each account's outbound volume per UTC day, kept as a counter in the same transaction as the
-- transfer, so the daily limit costs one row whatever the day's count (not a sum over it).
-- Failed transfers do not count: their amount comes off again when they fail.
CREATE TABLE daily_outbound_totals (
  account_id  text NOT NULL,
  day         date NOT NULL,
  total_kobo  bigint NOT NULL CHECK (total_kobo >= 0),
  PRIMARY KEY (account_id, day)
);
INSERT INTO daily_outbound_totals (account_id, day, total_kobo)
  SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, sum(amount_kobo)
    FROM transfers
   WHERE type = 'Outwards' AND status <> 'Failed'
   GROUP BY 1, 2;
