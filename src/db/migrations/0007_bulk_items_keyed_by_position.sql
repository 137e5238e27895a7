-- Bulk items keyed by their batch and position (docs/bulk-payouts.md, docs/benchmarks.md row
-- (h)): every read and update of an item already names its batch, and its position there is
-- unique, so the item's own id was a third index each of its 1,000 rows paid for at acceptance
-- (and again whenever its one update could not stay on its page), which no query used.
ALTER TABLE bulk_items DROP CONSTRAINT bulk_items_pkey;
ALTER TABLE bulk_items DROP COLUMN id;
ALTER TABLE bulk_items DROP CONSTRAINT bulk_items_batch_id_position_key;
ALTER TABLE bulk_items ADD CONSTRAINT bulk_items_pkey PRIMARY KEY (batch_id, position);
