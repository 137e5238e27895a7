import { invariant } from '../../shared/invariant.ts';
import type { TransferStatus } from './transfer.ts';

/**
 * The states OpenIBS's transfers take, and every status change goes through here.
 *
 * A transfer is born in one of two states: an intra-bank transfer, its recipient's side and a
 * credit from another bank are Completed at once; a NIP transfer is Processing until the network
 * answers. A Processing transfer stays Processing on an unknown answer and settles once, to
 * Completed (`00`) or Failed (a definitive code). Completed and Failed are final.
 *
 * `Created` and `Reversed` are in the published status list but nothing here produces them (a
 * transfer is stored already placed, and reversals do not exist yet), so they have no moves.
 */
const NEXT: Readonly<Record<TransferStatus, readonly TransferStatus[]>> = {
  Processing: ['Processing', 'Completed', 'Failed'],
  Completed: [],
  Failed: [],
  Created: [],
  Reversed: [],
};

export type TransferOrigin = 'intraBank' | 'nip' | 'inbound';

const BORN: Readonly<Record<TransferOrigin, TransferStatus>> = {
  intraBank: 'Completed',
  nip: 'Processing',
  inbound: 'Completed',
};

/** The status a new transfer is stored with. */
export function initialStatus(origin: TransferOrigin): TransferStatus {
  return BORN[origin];
}

export function canMove(from: TransferStatus, to: TransferStatus): boolean {
  return NEXT[from].includes(to);
}

/** The status after `to` is applied to `from`; anything the table does not allow is a bug. */
export function move<To extends TransferStatus>(from: TransferStatus, to: To): To {
  invariant(canMove(from, to), `a transfer cannot move from ${from} to ${to}`);
  return to;
}
