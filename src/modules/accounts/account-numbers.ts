import type { Queryable } from '../../db/db.ts';
import { nubanFromSerial } from '../../shared/nuban.ts';
import { nextAccountSerial } from './account-repository.ts';

/**
 * A new NUBAN of ours from the one serial every number comes from (accounts and virtual
 * accounts alike), so no two ever share a number.
 */
export async function newAccountNumber(db: Queryable, institutionCode: string): Promise<string> {
  return nubanFromSerial(institutionCode, await nextAccountSerial(db));
}
