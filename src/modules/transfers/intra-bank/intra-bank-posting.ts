import type { Queryable } from '../../../db/db.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { enqueueEvent } from '../../../webhooks/outbox.ts';
import type { Account } from '../../accounts/account.ts';
import { buildInwardTwin } from '../outbound/transfer-builder.ts';
import type { Transfer } from '../transfer.ts';
import { insertTransfer } from '../transfer-repository.ts';
import { transferView } from '../transfer-view.ts';
import { sweepAfterCredit } from './auto-sweep.ts';

export interface IntraBankDeps {
  readonly clock: Clock;
  readonly institutionCode: string;
}

/**
 * Moves an intra-bank transfer's money in the caller's transaction: the journal, the
 * recipient's Inwards twin, a `transfer` event for each side, then the recipient's auto-sweep
 * (unless this transfer is itself a sweep: sweeps never chain).
 */
export async function postIntraBank(
  tx: Queryable,
  deps: IntraBankDeps,
  parts: { outward: Transfer; debitAccount: Account; beneficiary: Account; isSweep: boolean },
): Promise<void> {
  const { outward, debitAccount, beneficiary } = parts;
  await ledger.post(tx, {
    id: newObjectId(deps.clock),
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
  const inward = buildInwardTwin(outward, beneficiary, deps.clock);
  await insertTransfer(tx, inward);
  for (const [transfer, callbackUrl] of [
    [outward, debitAccount.callbackUrl],
    [inward, beneficiary.callbackUrl],
  ] as const) {
    await enqueueEvent(tx, deps.clock, {
      clientId: transfer.clientId,
      type: 'transfer',
      data: transferView(transfer),
      callbackUrl,
    });
  }
  if (!parts.isSweep) {
    await sweepAfterCredit(tx, deps, beneficiary);
  }
}
