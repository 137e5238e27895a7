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
  account: { id: string; kind: 'customer' | 'internal'; name: string; createdAt: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_accounts (id, kind, name, created_at) VALUES ($1, $2, $3, $4)`,
    [account.id, account.kind, account.name, account.createdAt],
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
