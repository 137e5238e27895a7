import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TSchema } from 'typebox';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { loadFunctionFiles } from './db/sql-functions.ts';
import { DESCRIPTORS } from './descriptors.ts';
import type { BatchKind } from './ledger/batch.ts';
import { HoldItemSchema, JournalItemSchema } from './ledger/batch.ts';
import { VerificationRowSchema } from './modules/identity/identity-batch.ts';
import { TransferRowSchema } from './modules/transfers/transfer-batch.ts';
import { PurchaseRowSchema } from './modules/vas/vas-batch.ts';
import { OutboxEventItemSchema } from './webhooks/outbox.ts';

/**
 * The batch contract (ledger/batch.ts) held to the SQL: every key a batch function reads of its
 * item, of a part of it (through a variable, a loop or a function it hands the part to), is
 * declared by the schema TypeScript builds the item from.
 */

const files = new Map((await loadFunctionFiles()).map((file) => [file.name, file.sql]));

/** The schema at a key of an object schema, through Optional and Union wrappers. */
function child(schema: TSchema, key: string): TSchema | undefined {
  const node = schema as {
    properties?: Record<string, TSchema>;
    anyOf?: TSchema[];
    items?: TSchema;
  };
  if (key === '[]') {
    return node.items ?? node.anyOf?.map((variant) => child(variant, key)).find(Boolean);
  }
  return node.properties?.[key] ?? node.anyOf?.map((variant) => child(variant, key)).find(Boolean);
}

const PATH = /((?:\s*->>?\s*'[A-Za-z_]+')+)/;
const pathKeys = (text: string) => [...text.matchAll(/'([A-Za-z_]+)'/g)].map((match) => match[1]);

/** Functions whose jsonb parameter is a part the ledger or the outbox defines. */
const PART_SCHEMAS: Record<string, TSchema> = {
  ledger_post_json: JournalItemSchema,
  ledger_hold_json: HoldItemSchema,
};

/**
 * Every key `name`'s jsonb parameter is read by, checked against `schema`; problems are
 * pushed as text. Follows aliases (`v_x jsonb := p_item->'part'`, `FOR v_x IN ... p_item->'list'`)
 * and calls that hand the item or a part of it to another function file.
 */
function checkFunction(
  name: string,
  schema: TSchema,
  problems: string[],
  seen = new Set<string>(),
) {
  const sql = files.get(name);
  if (sql === undefined || seen.has(name)) {
    assert.ok(sql !== undefined, `no function file ${name}.sql`);
    return;
  }
  seen.add(name);
  const code = sql.replace(/--.*$/gm, '');
  const param = new RegExp(`FUNCTION\\s+${name}\\s*\\(\\s*(p_[a-z_]+)\\s+jsonb`).exec(code)?.[1];
  assert.ok(param !== undefined, `${name} takes a jsonb first`);
  const roots = new Map<string, string[]>([[param, []]]);
  const alias = new RegExp(
    `(v_[a-z_]+)\\s+(?:jsonb\\s*)?:=\\s*(?:coalesce\\()?(${param})${PATH.source}`,
    'g',
  );
  for (const match of code.matchAll(alias)) {
    roots.set(match[1] as string, pathKeys(match[3] as string) as string[]);
  }
  const loop = new RegExp(
    `FOR\\s+(v_[a-z_]+)\\s+IN\\s+SELECT\\s+\\*\\s+FROM\\s+jsonb_array_elements\\((?:coalesce\\()?(${param})${PATH.source}`,
    'g',
  );
  for (const match of code.matchAll(loop)) {
    roots.set(match[1] as string, [...(pathKeys(match[3] as string) as string[]), '[]']);
  }
  for (const [variable, base] of roots) {
    const reads = new RegExp(
      `\\b${variable}${PATH.source}|\\b${variable}\\s*\\?\\s*'([A-Za-z_]+)'`,
      'g',
    );
    for (const match of code.matchAll(reads)) {
      const keys = [
        ...base,
        ...(match[1] === undefined ? [match[2] as string] : pathKeys(match[1])),
      ];
      let at: TSchema | undefined = schema;
      for (const key of keys) {
        at = at === undefined ? undefined : child(at, key as string);
      }
      checked.push(`${name}: ${variable}.${keys.join('.')}`);
      if (at === undefined) {
        problems.push(`${name}.sql reads ${variable} at ${keys.join('.')}: not in its schema`);
      }
    }
    // A function file handed the item, or a part of it, reads it by that part's schema.
    const handed = new RegExp(
      `\\b([a-z_]+)\\(\\s*${variable}((?:\\s*->\\s*'[A-Za-z_]+')*)\\s*[,)]`,
      'g',
    );
    for (const match of code.matchAll(handed)) {
      const callee = match[1] as string;
      const takesJsonb = new RegExp(`FUNCTION\\s+${callee}\\s*\\(\\s*p_[a-z_]+\\s+jsonb`);
      if (callee === name || !takesJsonb.test(files.get(callee) ?? '')) {
        continue;
      }
      let at: TSchema | undefined = schema;
      for (const key of [...base, ...pathKeys(match[2] ?? '')]) {
        at = at === undefined ? undefined : child(at, key as string);
      }
      if (at !== undefined) {
        checkFunction(callee, PART_SCHEMAS[callee] ?? at, problems, seen);
      }
    }
  }
}

/** Every read the checks looked at, so a test can show that it looked. */
const checked: string[] = [];

const kinds = DESCRIPTORS.flatMap((descriptor) => descriptor.batch?.kinds ?? []);
const claims = DESCRIPTORS.flatMap((descriptor) => descriptor.batch?.claims ?? []);

describe('the batch contract', () => {
  it('names every kind of money movement and every claim handler the modules declare', () => {
    assert.deepEqual(kinds.map((kind) => kind.apply).sort(), [
      'bulk_accept_one',
      'bulk_place_one',
      'bulk_refuse_one',
      'identity_charge_one',
      'transfer_lien_release_one',
      'transfer_place_one',
      'transfer_recall_one',
      'transfer_receive_one',
      'transfer_return_one',
      'transfer_reverse_one',
      'transfer_settle_one',
      'vas_place_one',
      'vas_settle_one',
    ]);
    const handlers = claims.map((schema) => handlerOf(schema)).sort();
    assert.ok(handlers.includes('virtual_account_collect'));
    assert.ok(handlers.includes('ussd_reference_collect'));
    assert.ok(handlers.includes('checkout_session_pay'));
  });

  for (const kind of kinds as BatchKind<TSchema, TSchema>[]) {
    it(`${kind.apply} and ${kind.locks} read only what the item's schema declares`, () => {
      const problems: string[] = [];
      const before = checked.length;
      checkFunction(kind.apply, kind.item, problems);
      checkFunction(kind.locks, kind.item, problems);
      assert.deepEqual(problems, []);
      assert.ok(
        checked.length - before >= 3,
        `${kind.apply}: reads found ${checked.slice(before)}`,
      );
    });
  }

  for (const schema of claims) {
    const handler = handlerOf(schema);
    it(`the claim handler ${handler} reads only what its claim's schema declares`, () => {
      const problems: string[] = [];
      checkFunction(handler, schema, problems);
      assert.deepEqual(problems, []);
    });
  }

  it('follows a part into the functions it is handed to, and a variable that holds it', () => {
    for (const read of [
      'transfer_place_one: v_daily.daily.limit',
      'transfer_place_one: v_check.mustBeActive.[].accountId',
      'transfer_replay_of: p_item.requestHash',
      'ledger_post_json: p_journal.accountIds',
      'ledger_hold_json: p_hold.amount',
    ]) {
      assert.ok(checked.includes(read), `${read} was checked`);
    }
  });

  it('catches a key the schema does not declare', () => {
    const problems: string[] = [];
    const sql = files.get('transfer_receive_one') as string;
    files.set('transfer_receive_one', sql.replace("p_item->'events'", "p_item->'eventz'"));
    try {
      const receive = kinds.find((kind) => kind.apply === 'transfer_receive_one');
      checkFunction(
        'transfer_receive_one',
        (receive as BatchKind<TSchema, TSchema>).item,
        problems,
      );
    } finally {
      files.set('transfer_receive_one', sql);
    }
    assert.deepEqual(problems, [
      'transfer_receive_one.sql reads p_item at eventz: not in its schema',
    ]);
  });

  it('webhook_enqueue reads only what an outbox event item declares', () => {
    const sql = files.get('webhook_enqueue') as string;
    const read = [...sql.matchAll(/\be->>'([A-Za-z_]+)'/g)].map((match) => match[1]);
    const declared = Object.keys((OutboxEventItemSchema as { properties: object }).properties);
    assert.ok(read.length > 0);
    assert.deepEqual(
      read.filter((key) => !declared.includes(key as string)),
      [],
    );
  });
});

describe('the rows the batch functions insert whole (jsonb_populate_record)', () => {
  let db: TestDb;
  before(async () => {
    db = await createTestDb();
  });
  after(() => db.close());

  for (const [table, schema] of [
    ['transfers', TransferRowSchema],
    ['vas_purchases', PurchaseRowSchema],
    ['identity_verifications', VerificationRowSchema],
  ] as const) {
    it(`the schema of a ${table} row names the table's columns, no more, no fewer`, async () => {
      const rows = await db.db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
          WHERE table_name = $1 AND table_schema = current_schema()`,
        [table],
      );
      assert.deepEqual(
        Object.keys((schema as { properties: object }).properties).sort(),
        rows.map((row) => row.column_name).sort(),
      );
    });
  }
});

function handlerOf(schema: TSchema): string {
  const handler = (schema as { properties?: { handler?: { const?: string } } }).properties?.handler
    ?.const;
  assert.ok(handler !== undefined, 'a claim schema names its handler as a literal');
  return handler;
}
