import type { Queryable } from '../../db/db.ts';
import type { Account, AccountStatus, AccountType, NotificationSettings } from './account.ts';

interface AccountRow {
  id: string;
  client_id: string;
  account_number: string;
  account_name: string;
  account_type: AccountType;
  currency_code: string;
  is_sub_account: boolean;
  status: AccountStatus;
  kyc_level: string;
  external_reference: string | null;
  callback_url: string | null;
  metadata: Record<string, unknown>;
  notification_settings: NotificationSettings;
  balance_kobo: bigint;
  held_kobo: bigint;
  created_at: Date;
  updated_at: Date;
}

const SELECT_ACCOUNT = `
  SELECT a.id, a.client_id, a.account_number, a.account_name, a.account_type, a.currency_code,
         a.is_sub_account, a.status, a.kyc_level, a.external_reference, a.callback_url,
         a.metadata, a.notification_settings, l.balance_kobo, l.held_kobo,
         a.created_at, a.updated_at
    FROM accounts a JOIN ledger_accounts l ON l.id = a.id`;

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    clientId: row.client_id,
    accountNumber: row.account_number,
    accountName: row.account_name,
    accountType: row.account_type,
    currencyCode: row.currency_code,
    isSubAccount: row.is_sub_account,
    status: row.status,
    kycLevel: row.kyc_level,
    externalReference: row.external_reference,
    callbackUrl: row.callback_url,
    metadata: row.metadata,
    notificationSettings: row.notification_settings,
    balanceKobo: row.balance_kobo,
    heldKobo: row.held_kobo,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function nextAccountSerial(db: Queryable): Promise<bigint> {
  const rows = await db.query<{ serial: bigint }>(
    "SELECT nextval('account_number_serial') AS serial",
  );
  return rows[0]?.serial ?? 0n;
}

export interface NewAccount {
  readonly id: string;
  readonly clientId: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly accountType: AccountType;
  readonly isSubAccount: boolean;
  readonly metadata: Record<string, unknown>;
  readonly notificationSettings: NotificationSettings;
  readonly createdAt: Date;
}

export async function insertAccount(db: Queryable, account: NewAccount): Promise<void> {
  await db.query(
    `INSERT INTO accounts (id, client_id, account_number, account_name, account_type,
        is_sub_account, metadata, notification_settings, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [
      account.id,
      account.clientId,
      account.accountNumber,
      account.accountName,
      account.accountType,
      account.isSubAccount,
      JSON.stringify(account.metadata),
      JSON.stringify(account.notificationSettings),
      account.createdAt,
    ],
  );
}

/** Scoped by client: another client's account is indistinguishable from a missing one. */
export async function findClientAccount(
  db: Queryable,
  clientId: string,
  accountId: string,
): Promise<Account | undefined> {
  const rows = await db.query<AccountRow>(
    `${SELECT_ACCOUNT} WHERE a.id = $1 AND a.client_id = $2`,
    [accountId, clientId],
  );
  return rows[0] === undefined ? undefined : toAccount(rows[0]);
}

export async function findAccountByNumber(
  db: Queryable,
  accountNumber: string,
): Promise<Account | undefined> {
  const rows = await db.query<AccountRow>(`${SELECT_ACCOUNT} WHERE a.account_number = $1`, [
    accountNumber,
  ]);
  return rows[0] === undefined ? undefined : toAccount(rows[0]);
}

export async function listClientAccounts(
  db: Queryable,
  filter: { clientId: string; isSubAccount: boolean; offset: number; limit: number },
): Promise<{ accounts: Account[]; total: number }> {
  const [rows, counts] = await Promise.all([
    db.query<AccountRow>(
      `${SELECT_ACCOUNT} WHERE a.client_id = $1 AND a.is_sub_account = $2
        ORDER BY a.created_at DESC, a.id DESC OFFSET $3 LIMIT $4`,
      [filter.clientId, filter.isSubAccount, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      'SELECT count(*) AS total FROM accounts WHERE client_id = $1 AND is_sub_account = $2',
      [filter.clientId, filter.isSubAccount],
    ),
  ]);
  return { accounts: rows.map(toAccount), total: Number(counts[0]?.total ?? 0n) };
}

export async function updateNotificationSettings(
  db: Queryable,
  update: { clientId: string; accountId: string; settings: NotificationSettings; now: Date },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE accounts SET notification_settings = $3, updated_at = $4
      WHERE id = $1 AND client_id = $2 RETURNING id`,
    [update.accountId, update.clientId, JSON.stringify(update.settings), update.now],
  );
  return rows.length === 1;
}
