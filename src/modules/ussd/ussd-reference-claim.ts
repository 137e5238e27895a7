import { type Static, Type } from 'typebox';
import { KoboText, TimeText } from '../../ledger/batch.ts';

/**
 * A payment on a USSD reference as its owner's SQL judges it inside the payment's own batch item
 * (ledger/batch.ts, claims): sql/ussd_reference_collect.sql reads these fields.
 */
export const UssdReferenceClaimSchema = Type.Object({
  handler: Type.Literal('ussd_reference_collect'),
  lock: Type.String(),
  referenceId: Type.String(),
  transferId: Type.String(),
  sessionId: Type.String(),
  amount: KoboText,
  receivedAt: TimeText,
  ussdBankCode: Type.String(),
  at: TimeText,
});
export type UssdReferenceClaim = Static<typeof UssdReferenceClaimSchema>;
