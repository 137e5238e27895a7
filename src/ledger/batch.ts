import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Queryable } from '../db/db.ts';
import type { ItemFailure, ItemRefusal } from '../errors/batch-items.ts';
import { InvariantError, invariant } from '../shared/invariant.ts';

/**
 * The typed contract between TypeScript and the SQL that moves money (docs/adr/0005): every
 * movement is an item of a batch of one kind, applied by the one runner, apply_batch
 * (sql/apply_batch.sql). A kind names the two SQL functions its module owns (`apply`: one item,
 * `locks`: what one item writes under a batch lock) and the TypeBox schemas of what goes in and
 * what comes back. `callBatch` is typed going in by the item's schema and checks every answer
 * against the result's; a test (batch-contract.test.ts) fails when the SQL reads a key of an
 * item that the schema does not declare.
 */
export interface BatchKind<Item extends TSchema, Result extends TSchema> {
  /** sql/<apply>.sql in the owning module: applies one item, answers its result. */
  readonly apply: string;
  /** sql/<locks>.sql in the owning module: the lock keys of one item (text[]). */
  readonly locks: string;
  readonly item: Item;
  readonly result: Result;
}

export function batchKind<Item extends TSchema, Result extends TSchema>(
  kind: BatchKind<Item, Result>,
): BatchKind<Item, Result> {
  return kind;
}

/** What the runner answers for an item it refused (a business rule) or that failed alone. */
export const ItemRefusalSchema = Type.Object({
  kind: Type.Literal('refused'),
  code: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
});
export const ItemFailureSchema = Type.Object({
  kind: Type.Literal('failed'),
  sqlstate: Type.String(),
  message: Type.String(),
});

/** One result of a batch call: the kind's own, or a refusal or failure of that item alone. */
export type BatchResult<Result extends TSchema> = Static<Result> | ItemRefusal | ItemFailure;

/**
 * A claim an item carries: the owner of what a payment pays (a virtual account, a USSD
 * reference, a checkout session) decides on it inside the payment's own call. `handler` is the
 * owner's SQL function (it takes the claim, answers nothing, refuses with batch_refuse); `lock`
 * is the row it decides on, which the runner locks with the batch's accounts so payments to it
 * go one at a time. The rest is the owner's business (its own schema, checked by its tests).
 */
export const ClaimSchema = Type.Object({
  handler: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
  lock: Type.String(),
});
export type Claim = Static<typeof ClaimSchema>;

/** Amounts cross as decimal text (jsonb numbers would lose precision past 2^53). */
export const KoboText = Type.String({ pattern: '^-?[0-9]+$' });
/** Times cross in ISO 8601. */
export const TimeText = Type.String({ format: 'date-time' });
export const NullableText = Type.Union([Type.String(), Type.Null()]);
export const NullableTime = Type.Union([TimeText, Type.Null()]);

/** A journal as ledger_post_json takes it (journalJson in ledger-service.ts). */
export const JournalItemSchema = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  narration: Type.String(),
  reference: NullableText,
  transferId: NullableText,
  createdAt: TimeText,
  accountIds: Type.Array(Type.String(), { minItems: 2 }),
  amounts: Type.Array(KoboText, { minItems: 2 }),
  narrations: Type.Array(NullableText),
  releaseHoldId: NullableText,
});

/** A hold as ledger_hold_json takes it (holdJson in ledger-service.ts). */
export const HoldItemSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  amount: KoboText,
  reference: Type.String(),
  createdAt: TimeText,
});

interface Checkers {
  items: ReturnType<typeof Compile>;
  results: ReturnType<typeof Compile>;
}

// Compiled on a kind's first call, not at start (the sandbox starts in about a second).
const checkers = new WeakMap<BatchKind<TSchema, TSchema>, Checkers>();

function checkersOf(kind: BatchKind<TSchema, TSchema>): Checkers {
  let found = checkers.get(kind);
  if (found === undefined) {
    found = {
      items: Compile(Type.Array(kind.item)),
      results: Compile(Type.Array(Type.Union([kind.result, ItemRefusalSchema, ItemFailureSchema]))),
    };
    checkers.set(kind, found);
  }
  return found;
}

/**
 * Applies a batch of one kind in one call (apply_batch), one result per item, in order. Outside
 * a transaction the call is its own: it commits as it answers. Items the schema refuses, or an
 * answer it does not expect, are our bug: an invariant fails before or after the call.
 */
export async function callBatch<Item extends TSchema, Result extends TSchema>(
  db: Queryable,
  kind: BatchKind<Item, Result>,
  items: readonly Static<Item>[],
): Promise<BatchResult<Result>[]> {
  const check = checkersOf(kind);
  if (!check.items.Check(items)) {
    throw new InvariantError(batchMismatch(kind, 'items', check.items, items));
  }
  const rows = await db.query<{ results: unknown }>(
    'SELECT apply_batch($1, $2, $3::jsonb) AS results',
    [kind.apply, kind.locks, JSON.stringify(items)],
  );
  const results = rows[0]?.results ?? [];
  if (!check.results.Check(results)) {
    throw new InvariantError(batchMismatch(kind, 'results', check.results, results));
  }
  const answered = results as BatchResult<Result>[];
  invariant(
    answered.length === items.length,
    `${kind.apply} answered ${answered.length} results for ${items.length} items`,
  );
  return answered;
}

function batchMismatch(
  kind: BatchKind<TSchema, TSchema>,
  what: string,
  checker: ReturnType<typeof Compile>,
  value: unknown,
): string {
  const [first] = checker.Errors(value);
  return `${kind.apply} ${what} do not match the batch contract: ${first?.instancePath ?? ''} ${first?.message ?? ''}`;
}
