import type { Lien, LienStatus } from '../../../ledger/liens.ts';
import { lienJson } from '../../../ledger/liens.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import { lienView } from '../../accounts/index.ts';
import type { RecallItem } from '../transfer-batch.ts';

/** A filled event's updatedAt until the call writes in when it was paid (transfer_lien_event). */
const PAID_AT_PLACEHOLDER = new Date(0);

/** Who owes, why, and what placed it: the lien a clawback places if the debtor lacks funds. */
export interface ClawbackDebt {
  readonly accountId: string;
  readonly clientId: string;
  readonly reason: string;
  /** The recall's session id, the reversal's id. */
  readonly reference: string;
  readonly at: Date;
}

/**
 * The lien a recall or a reversal places for what the debtor lacks under the lock (the call
 * decides: ledger_post_clawback), with its `account.lien` events rendered now: `placed`, sent
 * with the clawback, and `filled`, kept with the lien for the credit that pays it
 * (transfer_lien_filled). Amounts the call knows are rendered as 0 and written in by it.
 */
export function clawbackLien(
  clock: Clock,
  debt: ClawbackDebt,
): Pick<RecallItem, 'lien' | 'lienEvents'> {
  const id = newObjectId(clock);
  const view = (status: LienStatus, updatedAt: Date) =>
    lienView(lienAt({ id, ...debt, status, updatedAt }));
  const [placed, filled] = outboxEventsJson(clock, [
    { clientId: debt.clientId, type: 'account.lien', data: view('active', debt.at) },
    { clientId: debt.clientId, type: 'account.lien', data: view('filled', PAID_AT_PLACEHOLDER) },
  ]);
  invariant(placed !== undefined && filled !== undefined, 'a lien has its two events');
  return {
    lien: lienJson({
      id,
      accountId: debt.accountId,
      reason: debt.reason,
      reference: debt.reference,
      onFilled: { handler: 'transfer_lien_filled', accountId: debt.accountId, event: filled },
    }),
    lienEvents: { placed, filled },
  };
}

function lienAt(parts: ClawbackDebt & { id: string; status: LienStatus; updatedAt: Date }): Lien {
  return {
    id: parts.id,
    accountId: parts.accountId,
    amountKobo: 0n,
    outstandingKobo: 0n,
    writtenOffKobo: 0n,
    reason: parts.reason,
    reference: parts.reference,
    status: parts.status,
    releasedBy: null,
    createdAt: parts.at,
    updatedAt: parts.updatedAt,
    resolvedAt: null,
  };
}
