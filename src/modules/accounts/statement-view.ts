import type { StatementEntry } from '../../ledger/statement-repository.ts';
import { koboToNaira } from '../../shared/money.ts';

export interface StatementRowView {
  entryNumber: number;
  type: 'Credit' | 'Debit';
  amount: number;
  balanceAfter: number;
  narration: string;
  reference: string | null;
  transferId: string | null;
  journalId: string;
  createdAt: string;
}

/** One statement line: amounts are positive naira, `type` says the direction. */
export function statementRowView(entry: StatementEntry): StatementRowView {
  const credit = entry.amountKobo > 0n;
  return {
    entryNumber: Number(entry.entryNumber),
    type: credit ? 'Credit' : 'Debit',
    amount: koboToNaira(credit ? entry.amountKobo : -entry.amountKobo),
    balanceAfter: koboToNaira(entry.balanceAfterKobo),
    narration: entry.narration,
    reference: entry.reference,
    transferId: entry.transferId,
    journalId: entry.journalId,
    createdAt: entry.createdAt.toISOString(),
  };
}
