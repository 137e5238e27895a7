import type { Db } from '../../../db/db.ts';
import { AppError, recordNotFound } from '../../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../../errors/batch-items.ts';
import { callBatch } from '../../../ledger/batch.ts';
import { findLien, type Lien, listLiens, writeOffJournalJson } from '../../../ledger/liens.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import { findAccountsByIds, lienView } from '../../accounts/index.ts';
import { type LienReleaseItem, lienRelease } from '../transfer-batch.ts';

export interface LienServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/**
 * An operator's release of an active lien, made ready for the call (kind lienRelease): what is
 * still outstanding when the call runs is written off (the write-off GL debited, the lien
 * receivable credited), the lien becomes `released` with the operator's label, and the
 * account's owner gets the `account.lien` event (its writtenOff written in by the call).
 */
export function prepareRelease(
  clock: Clock,
  lien: Lien,
  release: { clientId: string; operator: string; reason: string },
): LienReleaseItem {
  const now = clock.now();
  const released: Lien = {
    ...lien,
    outstandingKobo: 0n,
    writtenOffKobo: 0n,
    status: 'released',
    releasedBy: release.operator,
    updatedAt: now,
    resolvedAt: now,
  };
  const [event] = outboxEventsJson(clock, [
    { clientId: release.clientId, type: 'account.lien', data: lienView(released) },
  ]);
  invariant(event !== undefined, 'a release has its event');
  return {
    lienId: lien.id,
    accountId: lien.accountId,
    operator: release.operator,
    at: now.toISOString(),
    journal: writeOffJournalJson({
      id: newObjectId(clock),
      narration: `Lien ${lien.id} released by ${release.operator}: ${release.reason}`,
      lienId: lien.id,
      createdAt: now,
    }),
    event,
  };
}

/** Liens, for operators: an account's, and their release. */
export function createLienService(deps: LienServiceDeps) {
  /**
   * Releases an active lien; a lien released already (by this request resent, or a racing one)
   * answers as it stands. A lien paid in full cannot be released: LIEN_NOT_ACTIVE.
   */
  async function release(lienId: string, request: { operator: string; reason: string }) {
    const lien = await get(lienId);
    if (lien.status === 'active') {
      const account = (await findAccountsByIds(deps.db, [lien.accountId])).get(lien.accountId);
      invariant(account !== undefined, `the account of lien ${lienId} is missing`);
      const item = prepareRelease(deps.clock, lien, { ...request, clientId: account.clientId });
      const [result] = await callBatch(deps.db, lienRelease, [item]);
      invariant(result !== undefined, 'a release call answers its item');
      throwIfRefusedOrFailed(result, 'lien release');
    }
    const now = await findLien(deps.db, lienId);
    invariant(now !== undefined, `lien ${lienId} vanished`);
    if (now.status === 'filled') {
      throw new AppError('LIEN_NOT_ACTIVE');
    }
    return now;
  }

  /** One lien by id, whatever its account (an operator's read): unknown is a 404. */
  async function get(lienId: string): Promise<Lien> {
    const lien = await findLien(deps.db, lienId);
    if (lien === undefined) {
      throw recordNotFound();
    }
    return lien;
  }

  return { release, get, list: (accountId: string) => listLiens(deps.db, accountId) };
}

export type LienService = ReturnType<typeof createLienService>;
