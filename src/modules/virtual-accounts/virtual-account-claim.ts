import { type Static, Type } from 'typebox';
import { KoboText, TimeText } from '../../ledger/batch.ts';

/**
 * A payment into a virtual account as its owner's SQL judges it inside the payment's own batch
 * item (ledger/batch.ts, claims): sql/virtual_account_collect.sql reads these fields.
 */
export const VirtualAccountClaimSchema = Type.Object({
  handler: Type.Literal('virtual_account_collect'),
  lock: Type.String(),
  virtualAccountId: Type.String(),
  transferId: Type.String(),
  sessionId: Type.String(),
  amount: KoboText,
  receivedAt: TimeText,
});
export type VirtualAccountClaim = Static<typeof VirtualAccountClaimSchema>;
