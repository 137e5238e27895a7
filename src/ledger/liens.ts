import { type Static, Type } from 'typebox';
import type { Queryable } from '../db/db.ts';
import type { Kobo } from '../shared/money.ts';
import { NullableText, TimeText } from './batch.ts';
import { GL_ACCOUNTS } from './gl-accounts.ts';

/**
 * A lien: what an account owes the bank after money had to be taken back from it and it did not
 * hold it all (docs/ledger.md, "Liens"). Placed by ledger_post_clawback, paid by the account's
 * next credits (ledger_fill_liens), or released by an operator (ledger_release_lien).
 */
export interface Lien {
  readonly id: string;
  readonly accountId: string;
  readonly amountKobo: Kobo;
  readonly outstandingKobo: Kobo;
  readonly writtenOffKobo: Kobo;
  readonly reason: string;
  readonly reference: string;
  readonly status: LienStatus;
  readonly releasedBy: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly resolvedAt: Date | null;
}

export type LienStatus = 'active' | 'filled' | 'released';

/**
 * Who is told when a lien is paid in full: the placing module's SQL function (`handler`, called
 * with the notice, the lien's id and amount, and the time), and whatever it needs (its own
 * schema). The ledger never names the module.
 */
export const LienNoticeSchema = Type.Object({
  handler: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
});

/** A lien a clawback may place, as ledger_post_clawback takes it (lienJson). */
export const LienItemSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  /** The GL the shortfall is debited from: a batch names it in its locks. */
  receivableAccountId: Type.Literal(GL_ACCOUNTS.lienReceivable),
  reason: Type.String({ minLength: 1 }),
  reference: Type.String(),
  onFilled: Type.Union([LienNoticeSchema, Type.Null()]),
});

/** A journal as ledger_release_lien takes it: the write-off GL, then the lien receivable. */
export const WriteOffJournalSchema = Type.Object({
  id: Type.String(),
  kind: Type.Literal('lien_write_off'),
  narration: Type.String(),
  reference: NullableText,
  transferId: Type.Null(),
  createdAt: TimeText,
  accountIds: Type.Tuple([
    Type.Literal(GL_ACCOUNTS.lienWriteOff),
    Type.Literal(GL_ACCOUNTS.lienReceivable),
  ]),
  narrations: Type.Array(NullableText),
  releaseHoldId: Type.Null(),
});
export type WriteOffJournal = Static<typeof WriteOffJournalSchema>;

export function lienJson<Notice extends Static<typeof LienNoticeSchema> | null>(lien: {
  id: string;
  accountId: string;
  reason: string;
  reference: string;
  onFilled: Notice;
}) {
  return { ...lien, receivableAccountId: GL_ACCOUNTS.lienReceivable };
}

/** The journal that writes off a released lien's outstanding amount (its amounts come in SQL). */
export function writeOffJournalJson(journal: {
  id: string;
  narration: string;
  lienId: string;
  createdAt: Date;
}): WriteOffJournal {
  return {
    id: journal.id,
    kind: 'lien_write_off',
    narration: journal.narration,
    reference: journal.lienId,
    transferId: null,
    createdAt: journal.createdAt.toISOString(),
    accountIds: [GL_ACCOUNTS.lienWriteOff, GL_ACCOUNTS.lienReceivable],
    narrations: [null, null],
    releaseHoldId: null,
  };
}

interface LienRow {
  id: string;
  account_id: string;
  amount_kobo: bigint;
  outstanding_kobo: bigint;
  written_off_kobo: bigint;
  reason: string;
  reference: string;
  status: LienStatus;
  released_by: string | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
}

const SELECT_LIEN = `SELECT id, account_id, amount_kobo, outstanding_kobo, written_off_kobo, reason,
         reference, status, released_by, created_at, updated_at, resolved_at FROM ledger_liens`;

/** An account's liens, oldest first (the order its credits pay them in). */
export async function listLiens(db: Queryable, accountId: string): Promise<Lien[]> {
  const rows = await db.query<LienRow>(
    `${SELECT_LIEN} WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(toLien);
}

export async function findLien(db: Queryable, lienId: string): Promise<Lien | undefined> {
  const rows = await db.query<LienRow>(`${SELECT_LIEN} WHERE id = $1`, [lienId]);
  return rows[0] === undefined ? undefined : toLien(rows[0]);
}

/** The liens placed for a reference (a recall's session, a reversal), oldest first. */
export async function findLiensByReference(db: Queryable, reference: string): Promise<Lien[]> {
  const rows = await db.query<LienRow>(
    `${SELECT_LIEN} WHERE reference = $1 ORDER BY created_at, id`,
    [reference],
  );
  return rows.map(toLien);
}

function toLien(row: LienRow): Lien {
  return {
    id: row.id,
    accountId: row.account_id,
    amountKobo: BigInt(row.amount_kobo),
    outstandingKobo: BigInt(row.outstanding_kobo),
    writtenOffKobo: BigInt(row.written_off_kobo),
    reason: row.reason,
    reference: row.reference,
    status: row.status,
    releasedBy: row.released_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
  };
}
