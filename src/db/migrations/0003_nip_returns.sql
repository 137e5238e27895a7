-- Returned NIP transfers (modules/transfers, rails/nip; docs/sandbox-nip.md, "Returns").
--
-- The sandbox NIP simulator's books learn returns: the beneficiary's bank (a return's session id
-- starts with its code), when a kobo .81 transfer comes back by itself, and the return once the
-- beneficiary bank sent it (its session id, its reason, when). A status query of a returned
-- session answers the return, so a notice OpenIBS never got is still found.
ALTER TABLE nip_simulator_sessions
  ADD COLUMN beneficiary_bank_code text,
  ADD COLUMN return_due_at timestamptz,
  ADD COLUMN return_session_id text,
  ADD COLUMN return_reason text,
  ADD COLUMN returned_at timestamptz;

-- A Completed NIP transfer is asked about once more after the return window (its
-- next_status_query_at), in case its return notice was lost: the status-query worker claims
-- those through this index as it claims Processing ones through transfers_status_query_idx.
CREATE INDEX transfers_return_check_idx
  ON transfers (next_status_query_at)
  WHERE status = 'Completed' AND next_status_query_at IS NOT NULL;
