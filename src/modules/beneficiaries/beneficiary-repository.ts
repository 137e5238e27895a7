import type { Queryable } from '../../db/db.ts';

export interface Beneficiary {
  readonly id: string;
  readonly clientId: string;
  readonly bankCode: string;
  readonly bankName: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface BeneficiaryRow {
  id: string;
  client_id: string;
  bank_code: string;
  bank_name: string;
  account_number: string;
  account_name: string;
  created_at: Date;
  updated_at: Date;
}

function toBeneficiary(row: BeneficiaryRow): Beneficiary {
  return {
    id: row.id,
    clientId: row.client_id,
    bankCode: row.bank_code,
    bankName: row.bank_name,
    accountNumber: row.account_number,
    accountName: row.account_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * One beneficiary per (client, bank, account): saving again refreshes its name. The SQL is the
 * function beneficiary_save, which transfer placement also calls inside its own call.
 */
export async function saveBeneficiary(db: Queryable, beneficiary: Beneficiary): Promise<void> {
  await db.query('SELECT beneficiary_save($1, $2, $3, $4, $5, $6, $7)', [
    beneficiary.id,
    beneficiary.clientId,
    beneficiary.bankCode,
    beneficiary.bankName,
    beneficiary.accountNumber,
    beneficiary.accountName,
    beneficiary.createdAt,
  ]);
}

export async function listBeneficiaries(
  db: Queryable,
  page: { clientId: string; offset: number; limit: number },
): Promise<{ beneficiaries: Beneficiary[]; total: number }> {
  const [rows, counts] = await Promise.all([
    db.query<BeneficiaryRow>(
      `SELECT * FROM beneficiaries WHERE client_id = $1
        ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`,
      [page.clientId, page.offset, page.limit],
    ),
    db.query<{ total: bigint }>(
      'SELECT count(*) AS total FROM beneficiaries WHERE client_id = $1',
      [page.clientId],
    ),
  ]);
  return { beneficiaries: rows.map(toBeneficiary), total: Number(counts[0]?.total ?? 0n) };
}

export async function deleteBeneficiary(
  db: Queryable,
  clientId: string,
  beneficiaryId: string,
): Promise<Beneficiary | undefined> {
  const rows = await db.query<BeneficiaryRow>(
    'DELETE FROM beneficiaries WHERE id = $1 AND client_id = $2 RETURNING *',
    [beneficiaryId, clientId],
  );
  return rows[0] === undefined ? undefined : toBeneficiary(rows[0]);
}
