-- One operator release of a lien (apply_batch, kind lienRelease in transfer-batch.ts): what is
-- still outstanding is written off (ledger_release_lien) and the `account.lien` event (released)
-- goes to the account's owner. A lien no longer active (paid by a credit, or released by a
-- racing request) answers 'unchanged' and moves nothing.
CREATE OR REPLACE FUNCTION transfer_lien_release_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz := (p_item->>'at')::timestamptz;
  v_written_off bigint;
BEGIN
  v_written_off := ledger_release_lien(p_item->>'lienId', p_item->'journal',
    p_item->>'operator', v_at);
  IF v_written_off IS NULL THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  -- Rendered with its amount, and 0 outstanding and written off: the write-off goes in.
  PERFORM transfer_lien_event(p_item->'event', p_item->>'accountId', 0, 0, v_written_off, v_at);
  RETURN jsonb_build_object('kind', 'released', 'writtenOffKobo', v_written_off::text);
END $$;
