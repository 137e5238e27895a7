import type { Static } from 'typebox';
import type { Lien } from '../../ledger/liens.ts';
import { koboToNaira } from '../../shared/money.ts';
import type { LienSchema } from './account-schemas.ts';

export type LienView = Static<typeof LienSchema>;

/**
 * A lien on the wire (GET /accounts/:id/liens, the admin's read, the `account.lien` event):
 * naira, ISO times, `_id`.
 */
export function lienView(lien: Lien): LienView {
  return {
    _id: lien.id,
    account: lien.accountId,
    amount: koboToNaira(lien.amountKobo),
    outstanding: koboToNaira(lien.outstandingKobo),
    writtenOff: koboToNaira(lien.writtenOffKobo),
    reason: lien.reason,
    reference: lien.reference,
    status: lien.status,
    createdAt: lien.createdAt.toISOString(),
    updatedAt: lien.updatedAt.toISOString(),
  };
}
