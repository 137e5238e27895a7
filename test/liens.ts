/**
 * What the tests of recalls, reversals and liens look at: an account's balances as the API shows
 * them, its liens, the `account.lien` events written about a lien, and the lien receivable GL.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/db.ts';
import { GL_ACCOUNTS } from '../src/ledger/gl-accounts.ts';
import { adminHeaders, sandboxCredit, sendTransfer } from './factories.ts';
import type { TestApp } from './harness.ts';

const koboOf = (naira: number) => Math.round(naira * 100);

/**
 * A credit of ₦500 from another bank, `spent` naira of it sent away (the transfer's ₦10.75 fee
 * and VAT on top), then recalled by the sending bank: the account owes a lien for what it
 * lacked. The recall's answer data (`{ transfer, lien }`) and the credit.
 */
export async function lienFromRecall(
  app: FastifyInstance,
  headers: Record<string, string>,
  accountNumber: string,
  spent: number,
) {
  const credit = await sandboxCredit(app, accountNumber, 500);
  const sent = await sendTransfer(app, headers, {
    debitAccountNumber: accountNumber,
    amount: spent,
  });
  assert.equal(sent.statusCode, 200, sent.body);
  const recalled = await app.inject({
    method: 'POST',
    url: '/admin/sandbox/nip/recalls',
    headers: adminHeaders,
    payload: { sessionId: credit.sessionId },
  });
  assert.equal(recalled.statusCode, 200, recalled.body);
  const { lien } = recalled.json().data;
  assert.ok(lien !== null, 'the account had spent part of the credit: it owes a lien');
  return { credit, lien: lien as { _id: string } & Record<string, unknown> };
}

/** An account's available, book and locked balances in kobo (GET /accounts/:id). */
export async function balancesOf(
  testApp: TestApp,
  headers: Record<string, string>,
  accountId: string,
): Promise<{ available: number; book: number; locked: number }> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/accounts/${accountId}`,
    headers,
  });
  assert.equal(response.statusCode, 200, response.body);
  const account = response.json().data;
  return {
    available: koboOf(account.accountBalance),
    book: koboOf(account.bookBalance),
    locked: koboOf(account.lockedBalance),
  };
}

export interface LienPayload {
  readonly _id: string;
  readonly account: string;
  readonly amount: number;
  readonly outstanding: number;
  readonly writtenOff: number;
  readonly reason: string;
  readonly reference: string;
  readonly status: string;
  readonly updatedAt: string;
}

/** The account's liens as GET /accounts/:id/liens shows them. */
export async function liensOf(
  testApp: TestApp,
  headers: Record<string, string>,
  accountId: string,
): Promise<LienPayload[]> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/accounts/${accountId}/liens`,
    headers,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data;
}

/** The `account.lien` events written about one lien, oldest first. */
export async function lienEvents(db: Db, lienId: string): Promise<LienPayload[]> {
  const rows = await db.query<{ payload: unknown }>(
    `SELECT payload FROM webhook_events
      WHERE type = 'account.lien' AND payload->'data'->>'_id' = $1
      -- A lien's events in the order they happened: by time, and under a frozen test clock
      -- (one time for all) by what was still owed, which only ever goes down.
      ORDER BY created_at, (payload->'data'->>'outstanding')::numeric DESC,
        payload->'data'->>'status' = 'active' DESC, id`,
    [lienId],
  );
  return rows.map((row) => {
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    return (payload as { data: LienPayload }).data;
  });
}

/** The lien receivable GL's balance: minus what every active lien still owes. */
export async function lienReceivable(db: Db): Promise<bigint> {
  const rows = await db.query<{ balance_kobo: bigint }>(
    'SELECT balance_kobo FROM ledger_accounts WHERE id = $1',
    [GL_ACCOUNTS.lienReceivable],
  );
  return BigInt(rows[0]?.balance_kobo ?? 0n);
}
