import type { Queryable } from '../../db/db.ts';
import type {
  AmountControl,
  StoredVirtualAccountStatus,
  VirtualAccount,
  VirtualAccountStatus,
} from './virtual-account.ts';

interface VirtualAccountRow {
  id: string;
  client_id: string;
  account_number: string;
  account_name: string;
  settlement_account_id: string;
  settlement_account_number: string;
  amount_control: AmountControl;
  amount_kobo: bigint;
  valid_for_seconds: number;
  expires_at: Date;
  callback_url: string | null;
  external_reference: string | null;
  request_hash: string;
  status: StoredVirtualAccountStatus;
  paid_kobo: bigint;
  created_at: Date;
  updated_at: Date;
}

function toVirtualAccount(row: VirtualAccountRow): VirtualAccount {
  return {
    id: row.id,
    clientId: row.client_id,
    accountNumber: row.account_number,
    accountName: row.account_name,
    settlementAccountId: row.settlement_account_id,
    settlementAccountNumber: row.settlement_account_number,
    amountControl: row.amount_control,
    amountKobo: BigInt(row.amount_kobo),
    validForSeconds: row.valid_for_seconds,
    expiresAt: new Date(row.expires_at),
    callbackUrl: row.callback_url,
    externalReference: row.external_reference,
    requestHash: row.request_hash,
    status: row.status,
    paidKobo: BigInt(row.paid_kobo),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const SELECT = 'SELECT * FROM virtual_accounts';

/** Stores a new virtual account; false when the client's externalReference is taken. */
export async function insertVirtualAccount(
  db: Queryable,
  account: VirtualAccount,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO virtual_accounts (id, client_id, account_number, account_name,
        settlement_account_id, settlement_account_number, amount_control, amount_kobo,
        valid_for_seconds, expires_at, callback_url, external_reference, request_hash, status,
        created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (client_id, external_reference) WHERE external_reference IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      account.id,
      account.clientId,
      account.accountNumber,
      account.accountName,
      account.settlementAccountId,
      account.settlementAccountNumber,
      account.amountControl,
      account.amountKobo,
      account.validForSeconds,
      account.expiresAt,
      account.callbackUrl,
      account.externalReference,
      account.requestHash,
      account.status,
      account.createdAt,
      account.updatedAt,
    ],
  );
  return rows.length === 1;
}

/** The client's virtual account by id, deleted ones included (the service decides). */
export async function findClientVirtualAccount(
  db: Queryable,
  clientId: string,
  id: string,
): Promise<VirtualAccount | undefined> {
  const rows = await db.query<VirtualAccountRow>(`${SELECT} WHERE id = $1 AND client_id = $2`, [
    id,
    clientId,
  ]);
  return rows[0] === undefined ? undefined : toVirtualAccount(rows[0]);
}

export async function findByExternalReference(
  db: Queryable,
  clientId: string,
  externalReference: string,
): Promise<VirtualAccount | undefined> {
  const rows = await db.query<VirtualAccountRow>(
    `${SELECT} WHERE client_id = $1 AND external_reference = $2`,
    [clientId, externalReference],
  );
  return rows[0] === undefined ? undefined : toVirtualAccount(rows[0]);
}

/** Virtual accounts by number (any client, any status), for paying them. */
export async function findByNumbers(
  db: Queryable,
  accountNumbers: readonly string[],
): Promise<VirtualAccount[]> {
  const rows = await db.query<VirtualAccountRow>(`${SELECT} WHERE account_number = ANY($1)`, [
    accountNumbers,
  ]);
  return rows.map(toVirtualAccount);
}

export async function updateCallbackUrl(
  db: Queryable,
  change: { id: string; clientId: string; callbackUrl: string | null; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE virtual_accounts SET callback_url = $3, updated_at = $4
      WHERE id = $1 AND client_id = $2 AND status <> 'Deleted'`,
    [change.id, change.clientId, change.callbackUrl, change.now],
  );
}

/**
 * Deletes it for payments: a Deleted account takes none and reads as unknown. Under the row
 * lock, so a payment being accepted at the same moment either lands first or is refused.
 */
export async function markDeleted(
  db: Queryable,
  change: { id: string; clientId: string; now: Date },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE virtual_accounts SET status = 'Deleted', updated_at = $3
      WHERE id = $1 AND client_id = $2 AND status <> 'Deleted' RETURNING id`,
    [change.id, change.clientId, change.now],
  );
  return rows.length === 1;
}

export interface VirtualAccountFilter {
  readonly clientId: string;
  readonly status?: VirtualAccountStatus;
  /** Without a status: deleted ones listed too (an operator's view). */
  readonly includeDeleted?: boolean;
  readonly externalReference?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly now: Date;
  readonly offset: number;
  readonly limit: number;
}

/** A page of the client's virtual accounts, newest first; deleted ones only when asked for. */
export async function listVirtualAccounts(db: Queryable, filter: VirtualAccountFilter) {
  // Expired and Active are told apart by the time, as statusAt does.
  const where = `client_id = $1
      AND CASE WHEN $3::text IS NULL THEN ($7::boolean OR status <> 'Deleted')
               ELSE (CASE WHEN status = 'Active' AND expires_at <= $2 THEN 'Expired'
                          ELSE status END) = $3 END
      AND ($4::text IS NULL OR external_reference = $4)
      AND ($5::timestamptz IS NULL OR created_at >= $5)
      AND ($6::timestamptz IS NULL OR created_at <= $6)`;
  const params = [
    filter.clientId,
    filter.now,
    filter.status ?? null,
    filter.externalReference ?? null,
    filter.from ?? null,
    filter.to ?? null,
    filter.includeDeleted === true,
  ];
  const [rows, counts] = await Promise.all([
    db.query<VirtualAccountRow>(
      `${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC OFFSET $8 LIMIT $9`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM virtual_accounts WHERE ${where}`,
      params,
    ),
  ]);
  return { accounts: rows.map(toVirtualAccount), total: Number(counts[0]?.total ?? 0n) };
}

/** The transfers (ids) that paid a virtual account, oldest first. */
export async function paymentTransferIds(
  db: Queryable,
  virtualAccountId: string,
): Promise<string[]> {
  const rows = await db.query<{ transfer_id: string }>(
    `SELECT transfer_id FROM virtual_account_payments WHERE virtual_account_id = $1
      ORDER BY created_at, transfer_id`,
    [virtualAccountId],
  );
  return rows.map((row) => row.transfer_id);
}

/** The transfers (ids) that paid each of these virtual accounts, oldest first. */
export async function paymentTransferIdsByAccount(
  db: Queryable,
  virtualAccountIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows = await db.query<{ virtual_account_id: string; transfer_id: string }>(
    `SELECT virtual_account_id, transfer_id FROM virtual_account_payments
      WHERE virtual_account_id = ANY($1) ORDER BY created_at, transfer_id`,
    [virtualAccountIds],
  );
  const byAccount = new Map<string, string[]>();
  for (const row of rows) {
    byAccount.set(row.virtual_account_id, [
      ...(byAccount.get(row.virtual_account_id) ?? []),
      row.transfer_id,
    ]);
  }
  return byAccount;
}

/** The client's payment into one of its virtual accounts by the payment's session id. */
export async function findPaymentBySession(
  db: Queryable,
  clientId: string,
  sessionId: string,
): Promise<{ transferId: string; virtualAccountId: string } | undefined> {
  const rows = await db.query<{ transfer_id: string; virtual_account_id: string }>(
    `SELECT transfer_id, virtual_account_id FROM virtual_account_payments
      WHERE client_id = $1 AND session_id = $2`,
    [clientId, sessionId],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : { transferId: row.transfer_id, virtualAccountId: row.virtual_account_id };
}
