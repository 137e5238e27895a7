import { NO_CHARGES } from '../../../ledger/charges.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../../shared/ids.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import type { Account } from '../../accounts/index.ts';
import type { SweepItem } from '../transfer-batch.ts';
import { buildInwardTwin, buildOutward } from '../transfer-builder.ts';
import { transferRowJson } from '../transfer-repository.ts';
import { intraBankEvents } from './intra-bank-posting.ts';

export const AUTO_SWEEP_NARRATION = 'Auto-sweep';

/**
 * The auto-sweep of a credited account, as the batch item that credits it carries it (`sweep`,
 * sql/transfer_sweep_one.sql): everything but the amount, which only the balance after the
 * credit decides, under the batch's locks. The rows and event payloads are rendered with an
 * amount of 0, which the SQL replaces; the journal leaves its amounts out.
 */

/**
 * The sweep of `credited` to `destination` (found before the call, with the accounts module's
 * rule: another Active account of the same client), or undefined when there is none: most
 * credited accounts have auto-sweep off, and an item without `sweep` costs nothing. A sweep that
 * would move too little, or whose destination changed meanwhile, is skipped by the SQL, never
 * refused: the credit must not fail because of a sweep setting.
 */
export function prepareSweep(
  deps: { clock: Clock; institutionCode: string },
  credited: Account,
  destination: Account | undefined,
): SweepItem | undefined {
  const settings = credited.autoSweep;
  if (settings === null || !settings.enabled || destination === undefined) {
    return undefined;
  }
  const sessionId = newNipSessionId(deps.institutionCode, deps.clock);
  const outward = buildOutward(
    {
      id: newObjectId(deps.clock),
      sessionId,
      paymentReference: sessionId,
      nameEnquiryReference: sessionId,
      debitAccount: credited,
      counterparty: {
        bankCode: deps.institutionCode,
        accountNumber: destination.accountNumber,
        accountName: destination.accountName,
        kycLevel: destination.kycLevel,
      },
      amountKobo: 0n,
      charges: NO_CHARGES,
      narration: AUTO_SWEEP_NARRATION,
      intraBank: true,
      institutionCode: deps.institutionCode,
    },
    deps.clock,
  );
  const inward = buildInwardTwin(outward, destination, deps.clock);
  const sides = { outward, inward, debitAccount: credited, beneficiary: destination };
  return {
    accountId: credited.id,
    dailyLimitKey: credited.dailyLimitKey,
    destinationAccountId: destination.id,
    at: outward.createdAt.toISOString(),
    // The row keeps the key it counted under, like any Outwards transfer.
    outward: transferRowJson(outward, { dailyLimitKey: credited.dailyLimitKey }),
    inward: transferRowJson(inward),
    journal: {
      id: newObjectId(deps.clock),
      kind: 'intra_transfer',
      narration: AUTO_SWEEP_NARRATION,
      reference: sessionId,
      transferId: outward.id,
      createdAt: outward.createdAt.toISOString(),
      accountIds: [credited.id, destination.id],
      narrations: [null, null],
      releaseHoldId: null,
    },
    events: outboxEventsJson(deps.clock, intraBankEvents(sides)),
  };
}

/** The number an account sweeps to after a credit, when its auto-sweep is on. */
export function sweepDestinationNumber(account: Account | undefined): string | undefined {
  return account?.autoSweep?.enabled === true
    ? account.autoSweep.destinationAccountNumber
    : undefined;
}
