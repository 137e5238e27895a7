import type { Queryable } from '../../db/db.ts';
import type {
  Account,
  AccountStatus,
  AccountType,
  AutoSweep,
  NotificationSettings,
  SubAccountHolder,
} from './account.ts';

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
  lien_kobo: bigint;
  holder_type: 'Individual' | 'Corporate' | null;
  phone_number: string | null;
  email_address: string | null;
  identity_type: string | null;
  identity_verification_id: string | null;
  director_verification_ids: string[];
  daily_limit_key: string | null;
  auto_sweep: boolean;
  request_hash: string | null;
  auto_sweep_details: {
    destinationAccountNumber: string;
    retainKobo: string;
    minimumKobo: string;
  } | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT_ACCOUNT = `
  SELECT a.id, a.client_id, a.account_number, a.account_name, a.account_type, a.currency_code,
         a.is_sub_account, a.status, a.kyc_level, a.external_reference, a.callback_url,
         a.metadata, a.notification_settings, l.balance_kobo, l.held_kobo, l.lien_kobo,
         a.holder_type, a.phone_number, a.email_address, a.identity_type,
         a.identity_verification_id, a.director_verification_ids, a.daily_limit_key, a.auto_sweep,
         a.auto_sweep_details, a.request_hash, a.created_at, a.updated_at
    FROM accounts a JOIN ledger_account_balances l ON l.account_id = a.id`;

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
    lienKobo: row.lien_kobo,
    holder:
      row.holder_type === null
        ? null
        : {
            type: row.holder_type,
            phoneNumber: row.phone_number ?? '',
            emailAddress: row.email_address ?? '',
            identityType: row.identity_type ?? '',
            identityId: row.identity_verification_id ?? '',
            directorIdentityIds: row.director_verification_ids,
          },
    // No key of its own (a client's own account): the account counts alone.
    dailyLimitKey: row.daily_limit_key ?? row.id,
    autoSweep:
      row.auto_sweep_details === null
        ? null
        : {
            enabled: row.auto_sweep,
            destinationAccountNumber: row.auto_sweep_details.destinationAccountNumber,
            retainKobo: BigInt(row.auto_sweep_details.retainKobo),
            minimumKobo: BigInt(row.auto_sweep_details.minimumKobo),
          },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The next serial, and the key that permutes serials into account numbers. */
export async function nextAccountSerial(db: Queryable): Promise<{ serial: bigint; key: Buffer }> {
  const rows = await db.query<{ serial: bigint; key: Uint8Array }>(
    `SELECT nextval('account_number_serial') AS serial,
            (SELECT key FROM account_number_keys WHERE id = 1) AS key`,
  );
  const row = rows[0];
  if (row === undefined || row.key === null) {
    throw new Error('the account number key is missing (the baseline migration makes it)');
  }
  return { serial: BigInt(row.serial), key: Buffer.from(row.key) };
}

/** Whether an account has this number (a virtual account never does: the serial numbers both). */
export async function accountNumberInUse(db: Queryable, accountNumber: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM accounts WHERE account_number = $1', [accountNumber]);
  return rows.length > 0;
}

/**
 * Sandbox fixtures under a seed: the key that numbers accounts from now on, so the numbers a
 * test's accounts get are the same at every run. Only right after a reset (which restarts the
 * serial): numbers made under the old key are gone with the accounts that had them.
 */
export async function setAccountNumberKey(db: Queryable, key: Buffer): Promise<void> {
  await db.query('UPDATE account_number_keys SET key = $1 WHERE id = 1', [key]);
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
  readonly kycLevel: string;
  readonly subAccount?: NewSubAccount;
}

export interface NewSubAccount {
  readonly holder: SubAccountHolder;
  readonly externalReference: string;
  readonly requestHash: string;
  readonly callbackUrl: string | null;
  readonly autoSweep: AutoSweep | null;
  /** The holder's identity as a daily limit key (identityLimitKey). */
  readonly dailyLimitKey: string;
}

/** false when the client already has an account under this externalReference. */
export async function insertAccount(db: Queryable, account: NewAccount): Promise<boolean> {
  const sub = account.subAccount;
  const rows = await db.query(
    `INSERT INTO accounts (id, client_id, account_number, account_name, account_type,
        is_sub_account, metadata, notification_settings, created_at, updated_at, kyc_level,
        holder_type, phone_number, email_address, identity_type, identity_verification_id,
        director_verification_ids, external_reference, request_hash, callback_url, auto_sweep,
        auto_sweep_details, daily_limit_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11, $12, $13, $14, $15, $16, $17,
        $18, $19, $20, $21, $22)
     ON CONFLICT (client_id, external_reference) WHERE external_reference IS NOT NULL
       DO NOTHING RETURNING id`,
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
      account.kycLevel,
      sub?.holder.type ?? null,
      sub?.holder.phoneNumber ?? null,
      sub?.holder.emailAddress ?? null,
      sub?.holder.identityType ?? null,
      // No verification behind a sandbox fixture's sub-account: its identityId is empty.
      sub === undefined || sub.holder.identityId === '' ? null : sub.holder.identityId,
      [...(sub?.holder.directorIdentityIds ?? [])],
      sub?.externalReference ?? null,
      sub?.requestHash ?? null,
      sub?.callbackUrl ?? null,
      sub?.autoSweep?.enabled ?? false,
      sub?.autoSweep === null || sub?.autoSweep === undefined ? null : autoSweepJson(sub.autoSweep),
      sub?.dailyLimitKey ?? null,
    ],
  );
  return rows.length === 1;
}

export function autoSweepJson(autoSweep: AutoSweep): string {
  return JSON.stringify({
    destinationAccountNumber: autoSweep.destinationAccountNumber,
    retainKobo: autoSweep.retainKobo.toString(),
    minimumKobo: autoSweep.minimumKobo.toString(),
  });
}

/** The client's account under an externalReference, with the fingerprint of its request. */
export async function findByExternalReference(
  db: Queryable,
  clientId: string,
  externalReference: string,
): Promise<{ account: Account; requestHash: string | null } | undefined> {
  const rows = await db.query<AccountRow>(
    `${SELECT_ACCOUNT} WHERE a.client_id = $1 AND a.external_reference = $2`,
    [clientId, externalReference],
  );
  const row = rows[0];
  return row === undefined ? undefined : { account: toAccount(row), requestHash: row.request_hash };
}

/** Contact details, metadata, callback URL and auto-sweep: never identity, status or balance. */
export async function updateSubAccount(
  db: Queryable,
  update: {
    clientId: string;
    accountId: string;
    externalReference: string;
    phoneNumber: string;
    emailAddress: string;
    metadata: Record<string, unknown>;
    callbackUrl: string | null;
    autoSweep: AutoSweep | null;
    now: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE accounts SET phone_number = $3, email_address = $4, metadata = $5, callback_url = $6,
        auto_sweep = $7, auto_sweep_details = $8, updated_at = $9, external_reference = $10
      WHERE id = $1 AND client_id = $2 AND is_sub_account`,
    [
      update.accountId,
      update.clientId,
      update.phoneNumber,
      update.emailAddress,
      JSON.stringify(update.metadata),
      update.callbackUrl,
      update.autoSweep?.enabled ?? false,
      update.autoSweep === null ? null : autoSweepJson(update.autoSweep),
      update.now,
      update.externalReference,
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

/** Several accounts by id in one query (any client's: operator use). */
export async function findAccountsByIds(
  db: Queryable,
  accountIds: readonly string[],
): Promise<Map<string, Account>> {
  const rows = await db.query<AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = ANY($1)`, [accountIds]);
  return new Map(rows.map((row) => [row.id, toAccount(row)]));
}

/**
 * Accounts whose holders asked for a monthly statement (by email or SMS), opened before
 * `openedBefore` and not closed, in id order after `afterId`: a batch of a month's statement
 * run (docs/statements.md, "Monthly statements"). Any client's.
 */
export async function findMonthlyStatementAccounts(
  db: Queryable,
  filter: { afterId: string; openedBefore: Date; limit: number },
): Promise<Account[]> {
  const rows = await db.query<AccountRow>(
    `${SELECT_ACCOUNT}
      WHERE a.id > $1 AND a.created_at < $2 AND a.status <> 'Closed'
        AND (coalesce((a.notification_settings->>'emailMonthlyStatement')::boolean, false)
          OR coalesce((a.notification_settings->>'smsMonthlyStatement')::boolean, false))
      ORDER BY a.id LIMIT $3`,
    [filter.afterId, filter.openedBefore, filter.limit],
  );
  return rows.map(toAccount);
}

/** Several accounts by number in one query (a transfer's debit and recipient accounts). */
export async function findAccountsByNumber(
  db: Queryable,
  accountNumbers: readonly string[],
): Promise<Map<string, Account>> {
  const rows = await db.query<AccountRow>(`${SELECT_ACCOUNT} WHERE a.account_number = ANY($1)`, [
    accountNumbers,
  ]);
  return new Map(rows.map((row) => [row.account_number, toAccount(row)]));
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

/** Every account of the client (operator use): main accounts first, then sub-accounts, each newest first. */
export async function listAllClientAccounts(
  db: Queryable,
  filter: { clientId: string; accountNumber?: string; offset: number; limit: number },
): Promise<{ accounts: Account[]; total: number }> {
  const where = 'a.client_id = $1 AND ($2::text IS NULL OR a.account_number = $2)';
  const params = [filter.clientId, filter.accountNumber ?? null];
  const [rows, counts] = await Promise.all([
    db.query<AccountRow>(
      `${SELECT_ACCOUNT} WHERE ${where}
        ORDER BY a.is_sub_account, a.created_at DESC, a.id DESC OFFSET $3 LIMIT $4`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(`SELECT count(*) AS total FROM accounts a WHERE ${where}`, params),
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

/**
 * Moves an account between Active and Frozen (an operator's freeze); a Closed one never moves.
 * Answers the account as it is afterwards, or undefined when no account has the number.
 */
export async function setFrozen(
  db: Queryable,
  change: { accountNumber: string; frozen: boolean; now: Date },
): Promise<Account | undefined> {
  await db.query(
    `UPDATE accounts SET status = $2, updated_at = $3
      WHERE account_number = $1 AND status = $4`,
    [
      change.accountNumber,
      change.frozen ? 'Frozen' : 'Active',
      change.now,
      change.frozen ? 'Active' : 'Frozen',
    ],
  );
  return findAccountByNumber(db, change.accountNumber);
}

/**
 * The client's accounts opened with any of these identity verifications, oldest first: as the
 * holder's identity, or as a director's (a corporate sub-account). Operator use.
 */
export async function findAccountsOpenedWith(
  db: Queryable,
  clientId: string,
  verificationIds: readonly string[],
): Promise<
  { verificationId: string; accountId: string; accountNumber: string; as: 'holder' | 'director' }[]
> {
  const rows = await db.query<{
    id: string;
    account_number: string;
    identity_verification_id: string | null;
    director_verification_ids: string[];
  }>(
    `SELECT id, account_number, identity_verification_id, director_verification_ids
       FROM accounts
      WHERE client_id = $1
        AND (identity_verification_id = ANY($2) OR director_verification_ids && $2::text[])
      ORDER BY created_at, id`,
    [clientId, verificationIds],
  );
  const wanted = new Set(verificationIds);
  return rows.flatMap((row) => [
    ...(row.identity_verification_id !== null && wanted.has(row.identity_verification_id)
      ? [
          {
            verificationId: row.identity_verification_id,
            accountId: row.id,
            accountNumber: row.account_number,
            as: 'holder' as const,
          },
        ]
      : []),
    ...row.director_verification_ids
      .filter((id) => wanted.has(id))
      .map((id) => ({
        verificationId: id,
        accountId: row.id,
        accountNumber: row.account_number,
        as: 'director' as const,
      })),
  ]);
}
