import { invariant } from '../../shared/invariant.ts';
import type { TransferStatus } from './transfer.ts';

/**
 * The states OpenIBS's transfers take, and every status change goes through here.
 *
 * A transfer is born in one of two states: an intra-bank transfer, its recipient's side and a
 * credit from another bank are Completed at once; a NIP transfer is Processing until the network
 * answers. A Processing transfer stays Processing on an unknown answer and settles once, to
 * Completed (`00`) or Failed (a definitive code). Failed is final.
 *
 * Completed moves once more, to Reversed, when the beneficiary bank sends a NIP transfer back
 * (a return: outbound/transfer-return.ts). The money did arrive and then came back, so a return
 * never applies to a transfer that is not Completed: a Processing one is settled first (its
 * status query answers the return), a Failed one moved nothing. Only Outwards NIP transfers are
 * returned (transfer_return_one checks it under the lock); Reversed is final.
 *
 * `Created` is in the published status list but nothing here produces it (a transfer is stored
 * already placed), so it has no moves.
 */
const NEXT: Readonly<Record<TransferStatus, readonly TransferStatus[]>> = {
  Processing: ['Processing', 'Completed', 'Failed'],
  Completed: ['Reversed'],
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
