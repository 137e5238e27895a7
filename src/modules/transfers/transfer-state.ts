import { invariant } from '../../shared/invariant.ts';
import type { TransferStatus } from './transfer.ts';

/**
 * Created -> Processing -> Completed | Failed, and Completed -> Reversed. Intra-bank transfers
 * go from Created straight to Completed; nothing leaves Failed or Reversed.
 */
const NEXT: Readonly<Record<TransferStatus, readonly TransferStatus[]>> = {
  Created: ['Processing', 'Completed', 'Failed'],
  Processing: ['Completed', 'Failed'],
  Completed: ['Reversed'],
  Failed: [],
  Reversed: [],
};

export function canMove(from: TransferStatus, to: TransferStatus): boolean {
  return NEXT[from].includes(to);
}

export function assertMove(from: TransferStatus, to: TransferStatus): void {
  invariant(canMove(from, to), `a transfer cannot move from ${from} to ${to}`);
}
