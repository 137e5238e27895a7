import { Type } from 'typebox';
import type { Principal } from '../../auth/principal.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import {
  type Beneficiary,
  deleteBeneficiary,
  listBeneficiaries,
  saveBeneficiary,
} from './beneficiary-repository.ts';

export interface BeneficiaryServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** The bank's name for a NIP code, stored with the beneficiary. */
  readonly bankName: (bankCode: string) => string | undefined;
}

export interface Destination {
  readonly bankCode: string;
  readonly accountNumber: string;
  readonly accountName: string;
}

/** A client's saved beneficiaries: saved by a successful transfer, listed and deleted here. */
export function createBeneficiaryService(deps: BeneficiaryServiceDeps) {
  /** Saves (or refreshes) a beneficiary in the caller's transaction: the transfer's own. */
  async function remember(
    tx: Queryable,
    clientId: string,
    destination: Destination,
  ): Promise<void> {
    await saveBeneficiary(tx, { ...toSave(destination), clientId });
  }

  /**
   * The beneficiary a transfer saves, for SQL that saves it inside its own call (transfer
   * placement hands it to beneficiary_save).
   */
  function toSave(destination: Destination) {
    const now = deps.clock.now();
    return {
      id: newObjectId(deps.clock),
      bankCode: destination.bankCode,
      bankName: deps.bankName(destination.bankCode) ?? destination.bankCode,
      accountNumber: destination.accountNumber,
      accountName: destination.accountName,
      createdAt: now,
      updatedAt: now,
    };
  }

  function list(principal: Principal, page: { page: number; limit: number }) {
    return listBeneficiaries(deps.db, {
      clientId: principal.clientId,
      offset: page.page * page.limit,
      limit: page.limit,
    });
  }

  async function remove(principal: Principal, beneficiaryId: string): Promise<Beneficiary> {
    const removed = isObjectId(beneficiaryId)
      ? await deleteBeneficiary(deps.db, principal.clientId, beneficiaryId)
      : undefined;
    if (removed === undefined) {
      throw recordNotFound();
    }
    return removed;
  }

  return { remember, toSave, list, remove };
}

export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;

/** A beneficiary as beneficiary_save takes it inside a batch call (`toSave`). */
export const BeneficiaryToSaveSchema = Type.Object({
  id: Type.String(),
  bankCode: Type.String(),
  bankName: Type.String(),
  accountNumber: Type.String(),
  accountName: Type.String(),
});
