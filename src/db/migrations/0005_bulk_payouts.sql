-- Bulk payouts (modules/transfers/bulk; docs/bulk-payouts.md): POST /transfers/bulk stores a batch
-- and its items with its Idempotency-Key, in one call (bulk_accept_one); the bulk worker places
-- the pending items in chunks, each item's outcome written in its placement's own call
-- (bulk_place_one) or, for a refusal, in the same transaction right after it.

-- A batch: Processing until its last item ended, then Completed (once: the
-- transfer.bulk.completed event is written with that change). placed and refused count its
-- ended items, kept by the transaction that ends them (so progress is read from this row alone,
-- not counted from its items at every look). next_attempt_at is when the worker may claim it
-- next (db/claim-due.ts); a claim pushes it forward, completion clears it.
CREATE TABLE bulk_batches (
  id              text PRIMARY KEY,
  client_id       text NOT NULL,
  all_or_nothing  boolean NOT NULL,
  status          text NOT NULL CHECK (status IN ('Processing', 'Completed')),
  total           integer NOT NULL CHECK (total BETWEEN 1 AND 1000),
  placed          integer NOT NULL CHECK (placed >= 0),
  refused         integer NOT NULL CHECK (refused >= 0),
  request_hash    text NOT NULL,
  created_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  next_attempt_at timestamptz,
  CHECK (placed + refused <= total)
);
CREATE INDEX bulk_batches_client_created_idx ON bulk_batches (client_id, created_at DESC, id DESC);
CREATE INDEX bulk_batches_due_idx ON bulk_batches (next_attempt_at) WHERE status = 'Processing';

-- An item: Pending until it ends once, Placed (its transfer) or Refused (the API's error code
-- and message). `request` is the transfer request as checked (amount in kobo), absent for an
-- item refused before it could be read. Under allOrNothing, hold_id is the hold taken on the
-- item's total when the batch was accepted, which its placement releases as it moves the money.
-- Every item is updated once, when it ends, and no indexed column changes then: the room left
-- in each page (fillfactor) lets that update stay on its page without touching the indexes.
CREATE TABLE bulk_items (
  id                text PRIMARY KEY,
  batch_id          text NOT NULL REFERENCES bulk_batches (id),
  client_id         text NOT NULL,
  position          integer NOT NULL,
  payment_reference text,
  request           jsonb,
  status            text NOT NULL CHECK (status IN ('Pending', 'Placed', 'Refused')),
  transfer_id       text,
  error_code        text,
  error_message     text,
  hold_id           text,
  ended_at          timestamptz,
  UNIQUE (batch_id, position)
) WITH (fillfactor = 60);
CREATE INDEX bulk_items_client_reference_idx ON bulk_items (client_id, payment_reference);
