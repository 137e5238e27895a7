import type { Queryable } from '../../../db/db.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { enqueueEvents } from '../../../webhooks/outbox.ts';
import type { Account } from '../../accounts/index.ts';
import type { Transfer } from '../transfer.ts';
import { buildInwardTwin } from '../transfer-builder.ts';
import { insertTransfer } from '../transfer-repository.ts';
import { transferView } from '../transfer-view.ts';

/**
 * Moves an intra-bank transfer's money in the caller's transaction: the journal, the
 * recipient's Inwards twin, and a `transfer` event for each side. It never sweeps: the service
 * that owns the transaction sweeps the credited account once, after the credit.
 */
export async function postIntraBank(
  tx: Queryable,
  clock: Clock,
  parts: { outward: Transfer; debitAccount: Account; beneficiary: Account },
): Promise<void> {
  const { outward, debitAccount, beneficiary } = parts;
  await ledger.post(tx, {
    id: newObjectId(clock),
    kind: 'intra_transfer',
    narration: outward.narration,
    reference: outward.paymentReference,
    transferId: outward.id,
    createdAt: outward.createdAt,
    postings: [
      { accountId: debitAccount.id, amountKobo: -outward.amountKobo },
      { accountId: beneficiary.id, amountKobo: outward.amountKobo },
    ],
  });
  const inward = buildInwardTwin(outward, beneficiary, clock);
  await insertTransfer(tx, inward);
  await enqueueEvents(
    tx,
    clock,
    (
      [
        [outward, debitAccount.callbackUrl],
        [inward, beneficiary.callbackUrl],
      ] as const
    ).map(([transfer, callbackUrl]) => ({
      clientId: transfer.clientId,
      type: 'transfer' as const,
      data: transferView(transfer),
      callbackUrl,
    })),
  );
}
