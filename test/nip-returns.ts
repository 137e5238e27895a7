/**
 * What the tests of returned NIP transfers look at: the customer's balances with the GL accounts
 * a return moves, the `transfer` events written about a transfer, its statement lines, and the
 * ledger's invariants (src/ledger/ledger-audit.ts).
 */
import assert from 'node:assert/strict';
import type { Db } from '../src/db/db.ts';
import { GL_ACCOUNTS } from '../src/ledger/gl-accounts.ts';
import { verifyLedger } from '../src/ledger/ledger-audit.ts';
import type { TestApp } from './harness.ts';

const koboOf = (naira: number) => Math.round(naira * 100);

/** Balances in kobo: the customer account as the API shows it, and the GL accounts (SQL). */
export interface MoneySnapshot {
  readonly available: number;
  readonly book: number;
  readonly locked: number;
  readonly nipSettlement: bigint;
  readonly feeIncome: bigint;
  readonly vatPayable: bigint;
}

export async function moneySnapshot(
  testApp: TestApp,
  headers: Record<string, string>,
  accountId: string,
): Promise<MoneySnapshot> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/accounts/${accountId}`,
    headers,
  });
  assert.equal(response.statusCode, 200, response.body);
  const account = response.json().data;
  const gl = await testApp.db.query<{ id: string; balance_kobo: bigint }>(
    'SELECT id, balance_kobo FROM ledger_accounts WHERE id = ANY($1)',
    [[GL_ACCOUNTS.nipSettlement, GL_ACCOUNTS.feeIncome, GL_ACCOUNTS.vatPayable]],
  );
  const glBalance = (id: string) => gl.find((row) => row.id === id)?.balance_kobo ?? 0n;
  return {
    available: koboOf(account.accountBalance),
    book: koboOf(account.bookBalance),
    locked: koboOf(account.lockedBalance),
    nipSettlement: glBalance(GL_ACCOUNTS.nipSettlement),
    feeIncome: glBalance(GL_ACCOUNTS.feeIncome),
    vatPayable: glBalance(GL_ACCOUNTS.vatPayable),
  };
}

export interface TransferPayload {
  readonly _id: string;
  readonly status: string;
  readonly isReversed: boolean;
  readonly reversalReference: string | null;
  readonly amount: number;
  readonly fees: number;
  readonly vat: number;
  readonly sessionId: string;
}

/**
 * The `transfer` events written about one transfer, oldest first. A status query that settles a
 * transfer and applies its return writes both at one instant (the tests' clock stands still):
 * the Reversed one is the later.
 */
export async function transferEvents(db: Db, transferId: string): Promise<TransferPayload[]> {
  const rows = await db.query<{ payload: unknown }>(
    `SELECT payload FROM webhook_events
      WHERE type = 'transfer' AND payload->'data'->>'_id' = $1
      ORDER BY created_at, payload->'data'->>'isReversed'`,
    [transferId],
  );
  return rows.map((row) => {
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    return (payload as { data: TransferPayload }).data;
  });
}

export interface StatementLine {
  readonly type: 'Credit' | 'Debit';
  readonly amount: number;
  readonly narration: string;
  readonly transferId: string | null;
}

/** The account's statement lines of one transfer, as GET /accounts/:id/statement shows them. */
export async function statementLinesOf(
  testApp: TestApp,
  headers: Record<string, string>,
  accountId: string,
  transferId: string,
): Promise<{ type: string; kobo: number; narration: string }[]> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/accounts/${accountId}/statement?limit=100`,
    headers,
  });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json().data as StatementLine[])
    .filter((line) => line.transferId === transferId)
    .map((line) => ({ type: line.type, kobo: koboOf(line.amount), narration: line.narration }));
}

/** Every ledger invariant holds: each check counts no violation. */
export async function assertLedgerInvariants(db: Db): Promise<void> {
  const violations = await verifyLedger(db);
  assert.deepEqual(
    Object.entries(violations).filter(([, count]) => count !== 0),
    [],
    'ledger invariants',
  );
}

/** How many ledger entries exist: a refused return adds none. */
export async function entryCount(db: Db): Promise<bigint> {
  const rows = await db.query<{ n: bigint }>('SELECT count(*) AS n FROM ledger_entries');
  return rows[0]?.n ?? 0n;
}
