// What must hold after a run, read straight from the tables (never through OpenIBS's code) and
// from what the clients and the webhook receiver saw. Each check answers its problems as text;
// an empty list is a pass. The transfer checks of test/pg-only/transfer-load.ts are reused for
// the client whose accounts only move money by transfers; these cover the rest: inbound
// credits, virtual accounts, VAS, USSD, every hold and balance, the outbox and the deliveries.
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../../src/db/db.ts';
import { OUR_BANK } from '../../pg-only/server-fixture.ts';
import {
  answeredTransfer,
  isInsufficientFunds,
  type SentTransfer,
} from '../../pg-only/transfer-load.ts';
import type { WebhookReceiver } from '../../webhook-receiver.ts';
import {
  type Call,
  dataOf,
  type LoadRecords,
  type Resent,
  type TimedTransfer,
  type VasRecord,
} from './load.ts';
import type { Topology } from './topology.ts';

const json = (value: unknown) =>
  JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));

/** The answers each route may give under faults: status, or status and error code. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'POST /transfers': ['200', '402 INSUFFICIENT_FUNDS'],
  'POST /admin/sandbox/credits': ['201'],
  'POST /virtual-accounts': ['200'],
  'POST /admin/sandbox/virtual-account-payments': [
    '201',
    '400 VIRTUAL_ACCOUNT_CLOSED',
    '400 VIRTUAL_ACCOUNT_AMOUNT_REFUSED',
  ],
  'POST /vas/pay/airtime': ['200', '400 VAS_PURCHASE_FAILED', '402 INSUFFICIENT_FUNDS'],
  'POST /ussd-payment': ['200', '402 USSD_GATEWAY_UNAVAILABLE'],
  'POST /admin/sandbox/ussd-dials': ['200'],
};

/**
 * Every answer a client got: no 5xx but 503 DATABASE_UNAVAILABLE, no deadlock, nothing a route
 * should not answer, and no request left unanswered by a server that was alive all along (a
 * connection refused or cut while a server was killed is fine).
 */
export function answerProblems(calls: readonly Call[], topology: Topology) {
  const serverErrors: string[] = [];
  const deadlocks: string[] = [];
  const unexpected: string[] = [];
  const unanswered: string[] = [];
  for (const call of calls) {
    const where = `${call.route} to api-${call.server}`;
    if (call.status === 'no answer') {
      const windows = topology.apis[call.server]?.downWindows ?? [];
      const serverWasDown = windows.some(
        ([from, to]) => call.startedAt <= to && call.endedAt >= from,
      );
      if (!serverWasDown) {
        unanswered.push(`${where} after ${call.endedAt - call.startedAt} ms: ${call.body}`);
      }
      continue;
    }
    if (/deadlock/i.test(call.body)) {
      deadlocks.push(`${where} → ${call.status}: ${call.body.slice(0, 300)}`);
    }
    if (call.status === 503 && call.code === 'DATABASE_UNAVAILABLE') {
      continue;
    }
    if (call.status >= 500) {
      serverErrors.push(`${where} → ${call.status}: ${call.body.slice(0, 300)}`);
      continue;
    }
    const allowed = ALLOWED[call.route] ?? [];
    if (
      !allowed.includes(String(call.status)) &&
      !allowed.includes(`${call.status} ${call.code}`)
    ) {
      unexpected.push(`${where} → ${call.status}: ${call.body.slice(0, 300)}`);
    }
  }
  return { serverErrors, deadlocks, unexpected, unanswered };
}

/**
 * The resends after the load: a transfer stored before the resend is replayed (same id), one
 * that was not is placed now or refused for want of funds; the same for VAS purchases.
 */
export async function resendProblems(
  db: Db,
  merchantClientId: string,
  resent: {
    readonly transfers: readonly Resent<TimedTransfer>[];
    readonly purchases: readonly Resent<VasRecord>[];
  },
  /** What was stored before the resend: transfers by key, purchases by phone. */
  before: {
    readonly transfers: ReadonlyMap<string, { id: string }>;
    readonly purchases: ReadonlyMap<string, { id: string }>;
  },
): Promise<string[]> {
  const problems: string[] = [];
  for (const { original, call } of resent.transfers) {
    const stored = before.transfers.get(original.key);
    const transfer = answeredTransfer({ status: call.status, body: call.body });
    if (stored !== undefined) {
      if (transfer?._id !== stored.id) {
        problems.push(
          `transfer ${original.key}: stored ${stored.id}, resent: ${call.status} ${call.body}`,
        );
      }
    } else if (
      transfer === undefined &&
      !isInsufficientFunds({ status: call.status, body: call.body })
    ) {
      problems.push(`transfer ${original.key} (not stored): resent: ${call.status} ${call.body}`);
    }
  }
  for (const { original, call } of resent.purchases) {
    const stored = before.purchases.get(original.phone);
    const id = purchaseIdOf(call);
    if (stored !== undefined) {
      if (id !== stored.id) {
        problems.push(
          `VAS ${original.key}: stored ${stored.id}, resent: ${call.status} ${call.body}`,
        );
      }
    } else if (id === undefined && !(call.status === 402 && call.code === 'INSUFFICIENT_FUNDS')) {
      problems.push(`VAS ${original.key} (not stored): resent: ${call.status} ${call.body}`);
    }
  }
  const twice = await db.query<{ beneficiary: string; count: bigint }>(
    `SELECT beneficiary, count(*) FROM vas_purchases WHERE client_id = $1
      GROUP BY beneficiary HAVING count(*) > 1`,
    [merchantClientId],
  );
  problems.push(
    ...twice.map((row) => `VAS key (phone ${row.beneficiary}) applied ${row.count} times`),
  );
  return problems;
}

/** The purchase an answer names: a 200's `data.id`, or a 400 VAS_PURCHASE_FAILED's details. */
function purchaseIdOf(call: Call): string | undefined {
  if (call.status === 200) {
    return dataOf(call)?.id as string | undefined;
  }
  if (call.status === 400 && call.code === 'VAS_PURCHASE_FAILED') {
    const details = (JSON.parse(call.body) as { details?: { field: string; message: string }[] })
      .details;
    return details?.find((detail) => detail.field === 'id')?.message;
  }
  return undefined;
}

/** The VAS purchases of a client, by beneficiary (each load key has its own phone number). */
export async function purchasesByPhone(db: Db, clientId: string) {
  const rows = await db.query<{ id: string; beneficiary: string }>(
    'SELECT id, beneficiary FROM vas_purchases WHERE client_id = $1',
    [clientId],
  );
  return new Map(rows.map((row) => [row.beneficiary, row]));
}

/**
 * NIP transfers agree with the (simulated) network's books: one Completed was received and
 * succeeded there; one Failed was never received, or failed there. Money that arrived at the
 * other bank but was given back to the customer, or the reverse, shows here.
 */
export async function railDisagreements(db: Db): Promise<string[]> {
  const rows = await db.query<{
    id: string;
    status: string;
    session_id: string;
    final_code: string | null;
    received: boolean;
  }>(
    `SELECT t.id, t.status, t.session_id, s.session_id IS NOT NULL AS received,
            s.status_query_codes[cardinality(s.status_query_codes)] AS final_code
       FROM transfers t LEFT JOIN nip_simulator_sessions s ON s.session_id = t.session_id
      WHERE t.type = 'Outwards' AND t.credit_bank_code <> $1 AND t.status <> 'Processing'`,
    [OUR_BANK],
  );
  return rows
    .filter((row) =>
      row.status === 'Completed'
        ? !row.received || row.final_code !== '00'
        : row.received && row.final_code === '00',
    )
    .map((row) => `NIP ${row.id} is ${row.status}, the network: ${json(row)}`);
}

/** Every inbound credit answered 201 is that credit, Completed, on that account. */
export async function creditProblems(db: Db, records: LoadRecords): Promise<string[]> {
  const answered = records.credits.flatMap((credit) => {
    const data = dataOf(credit.call);
    return data === undefined ? [] : [{ credit, data }];
  });
  const rows = await db.query<Record<string, unknown>>(
    `SELECT id, type, status, amount_kobo, credit_account_number, session_id FROM transfers
      WHERE id = ANY ($1)`,
    [answered.map(({ data }) => data._id as string)],
  );
  const byId = new Map(rows.map((row) => [row.id as string, row]));
  return answered.flatMap(({ credit, data }) => {
    const row = byId.get(data._id as string);
    const expected = {
      id: data._id,
      type: 'Inwards',
      status: 'Completed',
      amount_kobo: credit.amountKobo,
      credit_account_number: credit.accountNumber,
      session_id: data.sessionId,
    };
    return json(row) === json(expected)
      ? []
      : [`credit answered ${json(expected)}, stored ${json(row)}`];
  });
}

/**
 * Virtual accounts: each answered creation is stored as answered (one account per
 * externalReference); each took at most one payment, which is a Completed credit of its amount
 * on its settlement account; every 201 names that payment; a payment it should have taken
 * (right amount, on time) was not refused while it stayed unpaid.
 */
export async function virtualAccountProblems(
  db: Db,
  clientId: string,
  records: LoadRecords,
): Promise<string[]> {
  const rows = await db.query<{
    id: string;
    external_reference: string;
    account_number: string;
    amount_kobo: bigint;
    status: string;
    paid_kobo: bigint;
    payments: bigint;
    transfer_ids: string[] | null;
    credited: bigint;
  }>(
    `SELECT v.id, v.external_reference, v.account_number, v.amount_kobo, v.status, v.paid_kobo,
            (SELECT count(*) FROM virtual_account_payments p WHERE p.virtual_account_id = v.id)
              AS payments,
            (SELECT array_agg(p.transfer_id) FROM virtual_account_payments p
              WHERE p.virtual_account_id = v.id) AS transfer_ids,
            (SELECT coalesce(sum(t.amount_kobo), 0) FROM virtual_account_payments p
               JOIN transfers t ON t.id = p.transfer_id
              WHERE p.virtual_account_id = v.id AND t.type = 'Inwards' AND t.status = 'Completed'
                AND t.account_id = v.settlement_account_id)::bigint AS credited
       FROM virtual_accounts v WHERE v.client_id = $1`,
    [clientId],
  );
  const byReference = new Map(rows.map((row) => [row.external_reference, row]));
  const problems: string[] = [];
  for (const row of rows) {
    const paid = row.status === 'Paid';
    if (
      row.payments > 1n ||
      paid !== (row.payments === 1n) ||
      (paid && (row.paid_kobo !== row.credited || row.credited !== row.amount_kobo))
    ) {
      problems.push(`virtual account not whole: ${json(row)}`);
    }
  }
  for (const record of records.virtualAccounts) {
    const row = byReference.get(record.externalReference);
    const ids = new Set(record.creates.flatMap((call) => (dataOf(call)?._id as string) ?? []));
    if (ids.size > 0 && (ids.size > 1 || row === undefined || !ids.has(row.id))) {
      problems.push(
        `${record.externalReference}: answered ${[...ids]}, stored ${json(row)} (one per reference)`,
      );
      continue;
    }
    if (row !== undefined && row.amount_kobo !== record.amountKobo) {
      problems.push(`${record.externalReference}: stored ${json(row)} for ${record.amountKobo}`);
    }
    const paidIds = new Set(
      record.payments.flatMap(({ call }) => (dataOf(call)?._id as string) ?? []),
    );
    for (const id of paidIds) {
      if (row === undefined || !(row.transfer_ids ?? []).includes(id)) {
        problems.push(
          `${record.externalReference}: payment ${id} answered 201, stored ${json(row)}`,
        );
      }
    }
    const wronglyRefused = record.payments.filter(
      ({ call, scenario, amountKobo }) =>
        (scenario === 'onTime' || scenario === 'duplicateSession') &&
        amountKobo === record.amountKobo &&
        call.status === 400,
    );
    if (row !== undefined && row.status !== 'Paid' && wronglyRefused.length > 0) {
      problems.push(
        `${record.externalReference}: unpaid, yet refused ${wronglyRefused.map(({ call }) => call.body)}`,
      );
    }
  }
  return problems;
}

const VAS_DECLINED_ENDINGS = new Set(['0000', '2222', '4444']);

/**
 * VAS purchases: each answered one is stored as answered (a 200 `successful` stays so, a 400
 * failed is failed), one purchase per key; its hold and journal agree with its status (pending:
 * held; successful: posted, one journal; failed: voided, none); it ends as the biller decided
 * (a declined ending never succeeds; a sold one fails only if the biller was never called).
 */
export async function vasProblems(
  db: Db,
  clientId: string,
  records: LoadRecords,
): Promise<string[]> {
  const rows = await db.query<{
    id: string;
    beneficiary: string;
    amount_kobo: bigint;
    status: string;
    failure_message: string | null;
    hold_status: string | null;
    held: bigint | null;
    own_hold: boolean | null;
    journals: bigint;
    keys: bigint;
  }>(
    `SELECT p.id, p.beneficiary, p.amount_kobo, p.status, p.failure_message,
            h.status AS hold_status, h.amount_kobo AS held, h.account_id = p.account_id AS own_hold,
            (SELECT count(*) FROM ledger_journals j
              WHERE j.kind = 'vas_purchase' AND j.reference = p.reference) AS journals,
            (SELECT count(*) FROM idempotency_requests r
              WHERE r.client_id = p.client_id AND r.resource_id = p.id) AS keys
       FROM vas_purchases p LEFT JOIN ledger_holds h ON h.id = p.hold_id
      WHERE p.client_id = $1`,
    [clientId],
  );
  const expected: Record<string, { hold: string; journals: bigint }> = {
    pending: { hold: 'pending', journals: 0n },
    successful: { hold: 'posted', journals: 1n },
    failed: { hold: 'voided', journals: 0n },
  };
  const problems: string[] = [];
  const byPhone = new Map(rows.map((row) => [row.beneficiary, row]));
  for (const row of rows) {
    const want = expected[row.status];
    if (
      want === undefined ||
      row.hold_status !== want.hold ||
      row.held !== row.amount_kobo ||
      row.own_hold !== true ||
      row.journals !== want.journals ||
      row.keys !== 1n
    ) {
      problems.push(`VAS purchase not whole: ${json(row)}`);
    }
    const ending = row.beneficiary.slice(-4);
    if (row.status === 'successful' && VAS_DECLINED_ENDINGS.has(ending)) {
      problems.push(`VAS purchase sold though the biller declines ${ending}: ${json(row)}`);
    }
    if (
      row.status === 'failed' &&
      !VAS_DECLINED_ENDINGS.has(ending) &&
      !/circuit breaker/.test(row.failure_message ?? '')
    ) {
      problems.push(`VAS purchase failed though the biller sells ${ending}: ${json(row)}`);
    }
  }
  for (const record of records.vas) {
    const row = byPhone.get(record.phone);
    for (const call of record.calls) {
      const id = purchaseIdOf(call);
      if (id === undefined) {
        continue;
      }
      const answeredStatus = call.status === 200 ? (dataOf(call)?.status as string) : 'failed';
      const allowed =
        answeredStatus === 'pending' ? ['pending', 'successful', 'failed'] : [answeredStatus];
      if (
        row === undefined ||
        row.id !== id ||
        row.amount_kobo !== record.amountKobo ||
        !allowed.includes(row.status)
      ) {
        problems.push(`${record.key}: answered ${id} ${answeredStatus}, stored ${json(row)}`);
      }
    }
  }
  return problems;
}

/** Amounts whose dial never pays at once (declined, notice lost, late, short). */
const USSD_NEVER_PAID_AT_DIAL = new Set([51n, 52n, 53n, 54n]);

/**
 * USSD references: each answered creation is stored (never for a .55 amount); a reference is
 * paid at most once, by a Completed credit of exactly its amount on its settlement account; every
 * `paid` dial answer names the accepted payment; every payment the gateway completed in time and
 * for the right amount is accepted in the end (the status-query worker finds lost notices); each
 * dial outcome is the one the amount scripts; no credit from the USSD payer is unaccounted for.
 */
export async function ussdProblems(
  db: Db,
  clientId: string,
  records: LoadRecords,
): Promise<string[]> {
  const rows = await db.query<{
    id: string;
    reference: string;
    amount_kobo: bigint;
    status: string;
    session_id: string | null;
    paid_kobo: bigint | null;
    gateway_paid: boolean;
    transfer: Record<string, unknown> | null;
  }>(
    `SELECT u.id, u.reference, u.amount_kobo, u.status, u.session_id, u.paid_kobo,
            (s.session_id IS NOT NULL AND s.paid_kobo = u.amount_kobo
              AND s.paid_at < u.expires_at) AS gateway_paid,
            CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object(
              'type', t.type, 'status', t.status, 'amount', t.amount_kobo::text,
              'own', t.account_id = u.settlement_account_id, 'session', t.session_id) END
              AS transfer
       FROM ussd_references u
       LEFT JOIN ussd_simulator_references s ON s.reference = u.reference
       LEFT JOIN transfers t ON t.id = u.transfer_id
      WHERE u.client_id = $1`,
    [clientId],
  );
  const problems: string[] = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    if (row.status === 'Paid') {
      const expected = {
        type: 'Inwards',
        status: 'Completed',
        amount: String(row.amount_kobo),
        own: true,
        session: row.session_id,
      };
      if (!isDeepStrictEqual(row.transfer, expected) || row.paid_kobo !== row.amount_kobo) {
        problems.push(`USSD reference paid but not whole: ${json(row)}`);
      }
    } else if (row.gateway_paid) {
      problems.push(`USSD payment completed at the gateway but never accepted: ${json(row)}`);
    }
  }
  for (const record of records.ussd) {
    const created = dataOf(record.create);
    const magic = record.amountKobo % 100n;
    if (created === undefined) {
      continue;
    }
    const row = byId.get(created._id as string);
    if (magic === 55n || row === undefined || row.reference !== created.reference) {
      problems.push(`USSD reference answered ${record.create.body}, stored ${json(row)}`);
      continue;
    }
    for (const { call } of record.dials) {
      const dial = dataOf(call) as
        | { outcome: string; sessionId?: string; code?: string }
        | undefined;
      if (dial === undefined) {
        continue;
      }
      const wrong =
        (dial.outcome === 'paid' &&
          (USSD_NEVER_PAID_AT_DIAL.has(magic) || row.session_id !== dial.sessionId)) ||
        (dial.outcome === 'declined' && magic !== 51n) ||
        (dial.outcome === 'noticeLost' && magic !== 52n) ||
        (dial.outcome === 'reversed' &&
          !(
            (magic === 54n && dial.code === 'USSD_AMOUNT_MISMATCH') ||
            (dial.code === 'USSD_REFERENCE_CLOSED' && (magic === 53n || row.status === 'Paid'))
          ));
      if (wrong) {
        problems.push(
          `USSD ${row.reference} (amount ${record.amountKobo}): dial ${call.body.slice(0, 300)}; stored ${json(row)}`,
        );
      }
    }
  }
  const stray = await db.query<{ id: string; debit_account_name: string }>(
    `SELECT t.id, t.debit_account_name FROM transfers t
      WHERE t.type = 'Inwards'
        AND ((t.debit_account_name = 'SANDBOX USSD PAYER'
              AND NOT EXISTS (SELECT 1 FROM ussd_references u WHERE u.transfer_id = t.id))
          OR (t.debit_account_name = 'SANDBOX PAYER'
              AND NOT EXISTS (SELECT 1 FROM virtual_account_payments p WHERE p.transfer_id = t.id)))`,
  );
  problems.push(
    ...stray.map((row) => `a ${row.debit_account_name} credit that pays nothing: ${row.id}`),
  );
  return problems;
}

/**
 * Every hold belongs to exactly one transfer or VAS purchase and agrees with it (Processing or
 * pending: held; Completed or successful: posted; Failed or failed: voided); every account's
 * held funds are its pending holds; every customer account's balance is exactly what its
 * completed transfers and successful purchases moved.
 */
export async function holdAndBalanceProblems(db: Db): Promise<string[]> {
  const holds = await db.query<Record<string, unknown>>(
    `WITH owners AS (
       SELECT hold_id, 'transfer' AS kind, status, account_id,
              amount_kobo + fee_kobo + vat_kobo AS total
         FROM transfers WHERE hold_id IS NOT NULL
       UNION ALL
       SELECT hold_id, 'vas', status, account_id, amount_kobo FROM vas_purchases)
     SELECT h.id, h.status, h.amount_kobo, count(o.hold_id) AS owners,
            min(o.kind) AS kind, min(o.status) AS owner_status,
            bool_and(o.account_id = h.account_id AND o.total = h.amount_kobo) AS agrees
       FROM ledger_holds h LEFT JOIN owners o ON o.hold_id = h.id
      GROUP BY h.id, h.status, h.amount_kobo`,
  );
  const holdFor: Record<string, string> = {
    Processing: 'pending',
    Completed: 'posted',
    Failed: 'voided',
    pending: 'pending',
    successful: 'posted',
    failed: 'voided',
  };
  const problems = holds
    .filter(
      (row) =>
        row.owners !== 1n ||
        row.agrees !== true ||
        holdFor[row.owner_status as string] !== row.status,
    )
    .map((row) => `hold not resolvable: ${json(row)}`);
  const ownerless = await db.query<{ id: string }>(
    `SELECT id FROM transfers WHERE hold_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM ledger_holds h WHERE h.id = transfers.hold_id)
     UNION ALL
     SELECT id FROM vas_purchases p
      WHERE NOT EXISTS (SELECT 1 FROM ledger_holds h WHERE h.id = p.hold_id)`,
  );
  problems.push(...ownerless.map((row) => `names a hold that does not exist: ${row.id}`));
  const held = await db.query<Record<string, unknown>>(
    `SELECT l.id, l.held_kobo, coalesce(p.pending, 0)::bigint AS pending
       FROM ledger_accounts l
       LEFT JOIN (SELECT account_id, sum(amount_kobo) AS pending FROM ledger_holds
                   WHERE status = 'pending' GROUP BY account_id) p ON p.account_id = l.id
      WHERE l.held_kobo <> coalesce(p.pending, 0)`,
  );
  problems.push(...held.map((row) => `held funds are not the pending holds: ${json(row)}`));
  const balances = await db.query<Record<string, unknown>>(
    `WITH moved AS (
       SELECT account_id,
              CASE WHEN type = 'Inwards'
                   THEN amount_kobo - fee_kobo - vat_kobo - stamp_duty_kobo
                   ELSE -(amount_kobo + fee_kobo + vat_kobo + stamp_duty_kobo) END AS net
         FROM transfers WHERE status = 'Completed'
       UNION ALL
       SELECT account_id, -(amount_kobo - commission_kobo) FROM vas_purchases
        WHERE status = 'successful')
     SELECT l.id, l.balance_kobo, coalesce(sum(m.net), 0)::bigint AS moved
       FROM ledger_accounts l LEFT JOIN moved m ON m.account_id = l.id
      WHERE l.kind = 'customer'
      GROUP BY l.id, l.balance_kobo
     HAVING l.balance_kobo <> coalesce(sum(m.net), 0)`,
  );
  problems.push(
    ...balances.map((row) => `balance is not what its movements add up to: ${json(row)}`),
  );
  return problems;
}

/**
 * The outbox holds exactly the events the money movements owe, once each: a `transfer` event per
 * intra-bank side, per settled NIP transfer and per inbound credit (a virtual account's or USSD
 * reference's payment included); a `virtualAccount.transfer` per virtual-account payment (beside
 * its settlement credit's `transfer`); a `ussd.payment` per paid reference
 * (twice when the client's URL differs from its callbackUrl); a `vas.transaction` per purchase
 * that a status query settled (twice with a statusUrl). A background item handled twice would
 * show as a second event.
 */
export async function eventProblems(db: Db): Promise<string[]> {
  const rows = await db.query<{ type: string; key: string; expected: bigint; actual: bigint }>(
    `WITH expected AS (
       SELECT 'transfer' AS type, t.id AS key, 1 AS n FROM transfers t
        WHERE (t.type = 'Outwards' AND (t.credit_bank_code = $1 OR t.status <> 'Processing'))
           OR t.type = 'Inwards'
       UNION ALL
       SELECT 'virtualAccount.transfer', v.transfer_id, 1 FROM virtual_account_payments v
       UNION ALL
       SELECT 'ussd.payment', u.reference,
              CASE WHEN u.callback_url IS NULL OR w.url IS NULL OR w.url = u.callback_url
                   THEN 1 ELSE 2 END
         FROM ussd_references u LEFT JOIN webhook_endpoints w ON w.client_id = u.client_id
        WHERE u.status = 'Paid'
       UNION ALL
       SELECT 'vas.transaction', p.id, CASE WHEN p.status_url IS NULL THEN 1 ELSE 2 END
         FROM vas_purchases p WHERE p.status <> 'pending' AND p.status_queries > 0),
     actual AS (
       SELECT type, CASE WHEN type = 'ussd.payment' THEN payload->'data'->>'reference'
                         ELSE payload->'data'->>'_id' END AS key, count(*) AS n
         FROM webhook_events GROUP BY 1, 2)
     SELECT coalesce(e.type, a.type) AS type, coalesce(e.key, a.key) AS key,
            coalesce(e.n, 0)::bigint AS expected, coalesce(a.n, 0)::bigint AS actual
       FROM expected e FULL JOIN actual a ON a.type = e.type AND a.key = e.key
      WHERE coalesce(e.n, 0) <> coalesce(a.n, 0)`,
    [OUR_BANK],
  );
  return rows.map(
    (row) => `${row.type} ${row.key}: ${row.actual} events, ${row.expected} expected`,
  );
}

/**
 * Delivery: every event delivered or still retrying (none failed, none that no worker picks up:
 * the drain reports those); the receiver got every delivered one with a 2xx at least once; every
 * webhook-id it received is one event, always with that event's body and at its destination;
 * no event has two successful attempts; no two attempts of one event overlapped in time.
 */
export async function deliveryProblems(
  db: Db,
  receiver: WebhookReceiver,
  /** Where events without a callbackUrl go: the clients' webhook URL. */
  clientWebhookUrl: string,
): Promise<{ problems: string[]; stats: Record<string, number> }> {
  const events = await db.query<{
    id: string;
    status: string;
    payload: unknown;
    callback_url: string | null;
    attempts: number;
    recorded: bigint;
    successes: bigint;
    overlaps: bigint;
  }>(
    `SELECT e.id, e.status, e.payload, e.callback_url, e.attempts,
            (SELECT count(*) FROM webhook_attempts a WHERE a.event_id = e.id) AS recorded,
            (SELECT count(*) FROM webhook_attempts a
              WHERE a.event_id = e.id AND a.status_code BETWEEN 200 AND 299) AS successes,
            (SELECT count(*) FROM webhook_attempts a JOIN webhook_attempts b
                 ON b.event_id = a.event_id AND b.attempt > a.attempt
              WHERE a.event_id = e.id
                AND b.attempted_at < a.attempted_at + (a.latency_ms - 10) * interval '1 ms')
              AS overlaps
       FROM webhook_events e`,
  );
  const problems: string[] = [];
  const byId = new Map(events.map((event) => [event.id, event]));
  for (const event of events) {
    if (event.status === 'failed') {
      problems.push(`event ${event.id} failed: no more retries`);
    }
    if (event.status === 'delivered' && (receiver.processed.get(event.id) ?? 0) === 0) {
      problems.push(`event ${event.id} is delivered, but the receiver never acknowledged it`);
    }
    if (event.successes > 1n || BigInt(event.attempts) < event.recorded || event.overlaps > 0n) {
      problems.push(`event ${event.id} attempts: ${json(event)}`);
    }
  }
  let redelivered = 0;
  const bodies = new Map<string, string>();
  for (const request of receiver.requests) {
    const id = String(request.headers['webhook-id']);
    const event = byId.get(id);
    if (event === undefined) {
      problems.push(`the receiver got webhook-id ${id}, which is no event`);
      continue;
    }
    const expectedPath = new URL(event.callback_url ?? clientWebhookUrl).pathname;
    if (
      !isDeepStrictEqual(JSON.parse(request.body), event.payload) ||
      request.path !== expectedPath
    ) {
      problems.push(
        `webhook-id ${id} came to ${request.path} with another body: ${request.body.slice(0, 200)}`,
      );
    }
    if (bodies.has(id) && bodies.get(id) !== request.body) {
      problems.push(`webhook-id ${id} came twice with different bodies`);
    }
    bodies.set(id, request.body);
  }
  for (const count of receiver.processed.values()) {
    redelivered += count > 1 ? 1 : 0;
  }
  const count = (status: string) => events.filter((event) => event.status === status).length;
  return {
    problems,
    stats: {
      events: events.length,
      delivered: count('delivered'),
      retrying: count('pending'),
      failed: count('failed'),
      requests: receiver.requests.length,
      acknowledgedMoreThanOnce: redelivered,
    },
  };
}

/** Answers of the shared transfer checks for the resent requests as well. */
export function allTransfers(
  records: LoadRecords,
  resent: readonly Resent<TimedTransfer>[],
): SentTransfer[] {
  return [
    ...records.transfers,
    ...resent.flatMap(({ again }) => (again === undefined ? [] : [again])),
  ];
}

export interface DrainReport {
  readonly waitedMs: number;
  /** What was still in progress when the wait ended, by kind. */
  readonly waiting: Record<string, number>;
  /** Work due for a while that no worker was taking: a background job that stopped. */
  readonly starved: string[];
}

/**
 * Waits (at most timeoutMs) until the workers have finished what the load left: no transfer
 * Processing, no VAS purchase pending, every USSD payment the gateway completed accepted, every
 * webhook event delivered. What is left then must still be legitimately waiting: due less than
 * a few seconds ago, or claimed by a worker that was killed (its claim not yet expired).
 */
export async function drain(db: Db, timeoutMs: number): Promise<DrainReport> {
  const startedAt = Date.now();
  for (;;) {
    const [row] = await db.query<Record<string, bigint>>(
      `SELECT (SELECT count(*) FROM transfers WHERE status = 'Processing') AS transfers,
              (SELECT count(*) FROM vas_purchases WHERE status = 'pending') AS purchases,
              (SELECT count(*) FROM ussd_references u
                 JOIN ussd_simulator_references s ON s.reference = u.reference
                WHERE u.status = 'Pending' AND s.session_id IS NOT NULL
                  AND s.paid_kobo = u.amount_kobo AND s.paid_at < u.expires_at) AS ussd,
              (SELECT count(*) FROM webhook_events WHERE status = 'pending') AS events`,
    );
    const waiting = Object.fromEntries(
      Object.entries(row ?? {}).map(([name, count]) => [name, Number(count)]),
    );
    const done = Object.values(waiting).every((count) => count === 0);
    if (done || Date.now() - startedAt > timeoutMs) {
      const starved = done
        ? []
        : await db.query<{ what: string; id: string }>(
            `SELECT 'transfer' AS what, id FROM transfers
              WHERE status = 'Processing' AND next_status_query_at < now() - interval '5 s'
             UNION ALL
             SELECT 'VAS purchase', id FROM vas_purchases
              WHERE status = 'pending' AND next_status_query_at < now() - interval '5 s'
             UNION ALL
             SELECT 'USSD payment', u.id FROM ussd_references u
               JOIN ussd_simulator_references s ON s.reference = u.reference
              WHERE u.status = 'Pending' AND s.session_id IS NOT NULL
                AND s.paid_kobo = u.amount_kobo AND s.paid_at < u.expires_at
                AND (u.next_status_query_at IS NULL
                     OR u.next_status_query_at < now() - interval '5 s')
             UNION ALL
             SELECT 'webhook event', id FROM webhook_events
              WHERE status = 'pending' AND next_attempt_at < now() - interval '5 s'
                AND (locked_until IS NULL OR locked_until < now() - interval '5 s')`,
          );
      return {
        waitedMs: Date.now() - startedAt,
        waiting,
        starved: starved.map((item) => `${item.what} ${item.id} is due and nobody takes it`),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
