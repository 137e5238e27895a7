import type { Queryable } from '../db/db.ts';
import type { Kobo } from '../shared/money.ts';
import type { Journal } from './journal.ts';

export interface LedgerAccountRow {
  readonly id: string;
  readonly balance_kobo: Kobo;
  readonly held_kobo: Kobo;
  readonly entry_count: bigint;
  readonly credit_count: bigint;
  readonly debit_count: bigint;
}

export async function insertLedgerAccount(
  tx: Queryable,
  account: {
    id: string;
    kind: 'customer' | 'internal';
    name: string;
    createdAt: Date;
    notify?: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_accounts (id, kind, name, created_at, notify) VALUES ($1, $2, $3, $4, $5)`,
    [account.id, account.kind, account.name, account.createdAt, account.notify ?? 0],
  );
}

export async function postJournal(tx: Queryable, journal: Journal): Promise<void> {
  await tx.query('SELECT ledger_post($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
    journal.id,
    journal.kind,
    journal.narration,
    journal.reference ?? null,
    journal.transferId ?? null,
    journal.createdAt,
    journal.postings.map((posting) => posting.accountId),
    journal.postings.map((posting) => posting.amountKobo.toString()),
    journal.postings.map((posting) => posting.narration ?? null),
    journal.releaseHoldId ?? null,
  ]);
}

export async function insertHold(
  tx: Queryable,
  hold: { id: string; accountId: string; amountKobo: Kobo; reference: string; createdAt: Date },
): Promise<void> {
  await tx.query('SELECT ledger_hold($1, $2, $3, $4, $5)', [
    hold.id,
    hold.accountId,
    hold.amountKobo,
    hold.reference,
    hold.createdAt,
  ]);
}

export async function voidHold(tx: Queryable, holdId: string, resolvedAt: Date): Promise<void> {
  await tx.query('SELECT ledger_void_hold($1, $2)', [holdId, resolvedAt]);
}

export async function findLedgerAccount(
  tx: Queryable,
  accountId: string,
): Promise<LedgerAccountRow | undefined> {
  const rows = await tx.query<LedgerAccountRow>(
    `SELECT id, balance_kobo, held_kobo, entry_count, credit_count, debit_count
       FROM ledger_accounts WHERE id = $1`,
    [accountId],
  );
  return rows[0];
}

/** One side of a journal, with the ledger account it moved. */
export interface JournalEntry {
  readonly journalId: string;
  readonly journalKind: string;
  readonly accountId: string;
  /** The ledger account's name (a customer account's is its account name). */
  readonly accountName: string;
  readonly accountKind: 'customer' | 'internal';
  readonly amountKobo: Kobo;
  readonly balanceAfterKobo: Kobo;
  readonly narration: string;
  readonly createdAt: Date;
}

/**
 * The entries of the journals posted for some transfers, found through one account they all
 * touch, within the time they were posted in: a range read of that account's entries (the
 * time index), never a scan of every journal.
 */
export async function findTransferEntries(
  db: Queryable,
  filter: { accountId: string; from: Date; to: Date; transferIds: readonly string[] },
): Promise<JournalEntry[]> {
  const rows = await db.query<{
    journal_id: string;
    journal_kind: string;
    account_id: string;
    account_name: string;
    account_kind: 'customer' | 'internal';
    amount_kobo: bigint;
    balance_after_kobo: bigint;
    narration: string;
    created_at: Date;
  }>(
    `SELECT j.id AS journal_id, j.kind AS journal_kind, e.account_id, l.name AS account_name,
            l.kind AS account_kind, e.amount_kobo, e.balance_after_kobo, e.narration, e.created_at
       FROM ledger_journals j
       JOIN ledger_entries e ON e.journal_id = j.id
       JOIN ledger_accounts l ON l.id = e.account_id
      WHERE j.id IN (SELECT journal_id FROM ledger_entries
                      WHERE account_id = $1 AND created_at >= $2 AND created_at <= $3)
        AND j.transfer_id = ANY($4)
      ORDER BY j.created_at, j.id, e.is_credit, e.account_id, e.seq`,
    [filter.accountId, filter.from, filter.to, filter.transferIds],
  );
  return rows.map((row) => ({
    journalId: row.journal_id,
    journalKind: row.journal_kind,
    accountId: row.account_id,
    accountName: row.account_name,
    accountKind: row.account_kind,
    amountKobo: row.amount_kobo,
    balanceAfterKobo: row.balance_after_kobo,
    narration: row.narration,
    createdAt: row.created_at,
  }));
}

/**
 * The internal (GL) accounts as the migrations made them, without their balances: what a sandbox
 * reset puts back after it empties the ledger. JSON text, handed back as it is.
 */
export async function readGlAccountSeeds(db: Queryable): Promise<string> {
  const rows = await db.query<{ seeds: string }>(
    `SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'kind', kind, 'name', name,
              'allow_negative', allow_negative, 'created_at', created_at) ORDER BY id),
            '[]')::text AS seeds
       FROM ledger_accounts WHERE kind = 'internal'`,
  );
  return rows[0]?.seeds ?? '[]';
}

/** Inserts the GL accounts readGlAccountSeeds read, each with a zero balance and no entries. */
export async function insertGlAccountSeeds(tx: Queryable, seeds: string): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_accounts (id, kind, name, allow_negative, created_at)
     SELECT id, kind, name, allow_negative, created_at
       FROM jsonb_populate_recordset(NULL::ledger_accounts, $1::jsonb)`,
    [seeds],
  );
}

/** An internal (GL) account and its balance. */
export interface GlAccountBalance {
  readonly id: string;
  readonly name: string;
  readonly allowNegative: boolean;
  readonly balanceKobo: Kobo;
  readonly heldKobo: Kobo;
  readonly entryCount: bigint;
  readonly lastEntryAt: Date | null;
}

export async function listInternalAccounts(db: Queryable): Promise<GlAccountBalance[]> {
  const rows = await db.query<{
    id: string;
    name: string;
    allow_negative: boolean;
    balance_kobo: bigint;
    held_kobo: bigint;
    entry_count: bigint;
    last_entry_at: Date | null;
  }>(
    `SELECT id, name, allow_negative, balance_kobo, held_kobo, entry_count, last_entry_at
       FROM ledger_accounts WHERE kind = 'internal' ORDER BY id`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    allowNegative: row.allow_negative,
    balanceKobo: row.balance_kobo,
    heldKobo: row.held_kobo,
    entryCount: row.entry_count,
    lastEntryAt: row.last_entry_at,
  }));
}

/** Balances summed by kind of account: customer and internal (GL). */
export async function balanceTotals(
  db: Queryable,
): Promise<{ customerKobo: Kobo; internalKobo: Kobo; heldKobo: Kobo; accounts: number }> {
  const rows = await db.query<{
    customer_kobo: bigint;
    internal_kobo: bigint;
    held_kobo: bigint;
    accounts: number;
  }>(
    `SELECT coalesce(sum(balance_kobo) FILTER (WHERE kind = 'customer'), 0)::bigint AS customer_kobo,
            coalesce(sum(balance_kobo) FILTER (WHERE kind = 'internal'), 0)::bigint AS internal_kobo,
            coalesce(sum(held_kobo), 0)::bigint AS held_kobo,
            count(*)::int AS accounts
       FROM ledger_accounts`,
  );
  const row = rows[0];
  return {
    customerKobo: BigInt(row?.customer_kobo ?? 0n),
    internalKobo: BigInt(row?.internal_kobo ?? 0n),
    heldKobo: BigInt(row?.held_kobo ?? 0n),
    accounts: row?.accounts ?? 0,
  };
}
