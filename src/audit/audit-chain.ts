import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import {
  type ChainHead,
  type ChainRow,
  readChainHead,
  readChainRows,
} from './audit-chain-repository.ts';

const MAX_ID = '9223372036854775807';

/** The prev_hash of the first row: no row comes before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a row's hash covers after its prev_hash, in the encoding's order. */
export const HASHED_FIELDS = [
  'id',
  'at',
  'actor',
  'action',
  'target',
  'outcome',
  'sourceIp',
  'requestId',
  'details',
  'operatorId',
  'sessionId',
  'before',
  'after',
] as const satisfies readonly (keyof ChainRow)[];

/**
 * A row's hash, computed here rather than asked of the database (audit_event_hash computes the
 * same in SQL for the append): whoever can change the rows can change the database's functions
 * too. Each field a netstring of its UTF-8 bytes (`<length>:<text>,`), NULL `-,`.
 */
export function auditRowHash(row: Omit<ChainRow, 'hash'>): string {
  const hash = createHash('sha256');
  for (const value of [row.prevHash, ...HASHED_FIELDS.map((field) => row[field])]) {
    hash.update(value === null ? '-,' : `${Buffer.byteLength(value, 'utf8')}:${value},`, 'utf8');
  }
  return hash.digest('hex');
}

/** How the chain is broken where it first is (docs/operations.md, "Verifying the chain"). */
export type ChainBreakKind = 'edited' | 'deleted' | 'inserted' | 'rewritten' | 'truncated';

export interface ChainBreak {
  /** The first row found wrong (for `truncated`, the missing head's id). */
  readonly row: string;
  readonly kind: ChainBreakKind;
  readonly message: string;
}

export type ChainVerdict =
  | { readonly ok: true; readonly rows: number; readonly head: RecordedHead | null }
  | { readonly ok: false; readonly rows: number; readonly broken: ChainBreak };

/** A head copied out earlier (`<id>:<hash>`, as audit:verify prints it). */
export interface RecordedHead {
  readonly id: string;
  readonly hash: string;
}

export function parseRecordedHead(text: string): RecordedHead | undefined {
  const match = /^([1-9][0-9]{0,18}):([0-9a-f]{64})$/.exec(text.trim());
  return match === null ? undefined : { id: match[1] ?? '', hash: match[2] ?? '' };
}

export const formatHead = (head: RecordedHead): string => `${head.id}:${head.hash}`;

/** Where the walk stands: the last row checked, its hash, and the hash before it. */
interface Walk {
  rows: number;
  lastId: string | null;
  lastHash: string;
  hashBefore: string | null;
}

/**
 * Walks the chain in id order, `batch` rows at a time (memory stays one batch), recomputing
 * every hash, up to the head as it stood when the walk began (appends made meanwhile are the
 * next walk's). Answers the first break, or the count and the head; `recorded`, a head copied
 * out earlier, must still be in the chain with its hash (so a deleted tail, or a chain
 * recomputed from an edit on, is caught even when the head row was patched to match).
 */
export async function verifyAuditChain(
  db: Queryable,
  options: { readonly recorded?: RecordedHead | undefined; readonly batch?: number } = {},
): Promise<ChainVerdict> {
  const head = await readChainHead(db);
  if (head === undefined) {
    const message = 'audit_chain_head has no row: the chain head was deleted at the database';
    return { ok: false, rows: 0, broken: { row: '0', kind: 'rewritten', message } };
  }
  const walk: Walk = { rows: 0, lastId: null, lastHash: GENESIS_HASH, hashBefore: null };
  const limit = options.batch ?? 1000;
  for (let more = true; more; ) {
    const rows = await readChainRows(db, {
      afterId: walk.lastId ?? '0',
      // No head row yet: every row there is (none, unless one was written outside the chain).
      uptoId: head.lastId ?? MAX_ID,
      limit,
    });
    for (const row of rows) {
      const broken = checkRow(walk, row) ?? checkRecorded(row, options.recorded);
      if (broken !== undefined) {
        return { ok: false, rows: walk.rows, broken };
      }
      walk.rows += 1;
      walk.hashBefore = walk.lastHash;
      walk.lastHash = row.hash;
      walk.lastId = row.id;
    }
    more = rows.length === limit;
  }
  const broken = checkEnd(walk, head, options.recorded);
  if (broken !== undefined) {
    return { ok: false, rows: walk.rows, broken };
  }
  const last = walk.lastId === null ? null : { id: walk.lastId, hash: walk.lastHash };
  return { ok: true, rows: walk.rows, head: last };
}

/** The row's own hash first (an edit, or two rows' contents swapped), then its link. */
function checkRow(walk: Walk, row: ChainRow): ChainBreak | undefined {
  if (auditRowHash(row) !== row.hash) {
    return {
      row: row.id,
      kind: 'edited',
      message: `row ${row.id} was changed after it was written: its hash does not match its contents`,
    };
  }
  if (row.prevHash === walk.lastHash) {
    return undefined;
  }
  if (walk.lastId === null) {
    return {
      row: row.id,
      kind: 'deleted',
      message: `row ${row.id} is the first row but does not start the chain: the rows before it were deleted`,
    };
  }
  return brokenLink(walk, walk.lastId, row);
}

function brokenLink(walk: Walk, previous: string, row: ChainRow): ChainBreak {
  const missing = BigInt(row.id) - BigInt(previous) - 1n;
  if (missing > 0n) {
    const ids =
      missing === 1n
        ? `row ${BigInt(previous) + 1n}`
        : `rows ${BigInt(previous) + 1n} to ${BigInt(row.id) - 1n}`;
    return {
      row: row.id,
      kind: 'deleted',
      message: `row ${row.id} does not follow row ${previous}: ${ids} between them ${missing === 1n ? 'was' : 'were'} deleted`,
    };
  }
  if (row.prevHash === walk.hashBefore) {
    return {
      row: previous,
      kind: 'inserted',
      message: `row ${previous} was inserted outside the chain: row ${row.id} links past it`,
    };
  }
  return {
    row: previous,
    kind: 'rewritten',
    message: `row ${row.id} does not follow row ${previous}: row ${previous} was rewritten with a new hash (or a row between them was removed)`,
  };
}

function checkRecorded(row: ChainRow, recorded: RecordedHead | undefined): ChainBreak | undefined {
  if (recorded === undefined || row.id !== recorded.id || row.hash === recorded.hash) {
    return undefined;
  }
  return {
    row: row.id,
    kind: 'rewritten',
    message: `row ${row.id} is the recorded head but its hash is not the one recorded: the chain was recomputed from an edit at or before it`,
  };
}

/** The walk reached the head audit_append left, and passed the head copied out, if any. */
function checkEnd(
  walk: Walk,
  head: ChainHead,
  recorded: RecordedHead | undefined,
): ChainBreak | undefined {
  const end = walk.lastId === null ? 'the chain is empty' : `the chain ends at row ${walk.lastId}`;
  if (head.lastId !== walk.lastId || head.hash !== walk.lastHash) {
    return {
      row: head.lastId ?? walk.lastId ?? '0',
      kind: 'truncated',
      message: `the chain's head (audit_chain_head) names row ${head.lastId ?? 'none'} but ${end}: rows at its tail were deleted`,
    };
  }
  if (
    recorded !== undefined &&
    (walk.lastId === null || BigInt(walk.lastId) < BigInt(recorded.id))
  ) {
    return {
      row: recorded.id,
      kind: 'truncated',
      message: `row ${recorded.id}, the recorded head, is gone and ${end}: rows at its tail were deleted`,
    };
  }
  return undefined;
}
