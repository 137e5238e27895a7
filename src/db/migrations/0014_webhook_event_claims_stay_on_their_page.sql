-- A webhook event is updated twice after its insert: the delivery worker's claim (attempts,
-- locked_until) and the attempt's outcome (status, updated_at, delivered_at). The claim changes
-- no indexed column, so with room on the event's page PostgreSQL keeps the new version there
-- and adds no index entries (a HOT update); with the table's pages full, every claim wrote a
-- new entry into each of the table's indexes, and the worker's next claim had to step over
-- them in the due index (docs/benchmarks.md, "As deployed", 2026-11-29). Pages written from now
-- on keep 30 % free for that.
ALTER TABLE webhook_events SET (fillfactor = 70);
