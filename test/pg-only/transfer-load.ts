// Concurrent transfer load against real server processes, and what must hold of the database
// after it, whatever happened to the servers: read straight from the tables, never from the
// server's code, so the checks stay valid however the transfer path is written.
import type { Db } from '../../src/db/db.ts';
import { OTHER_BANK, OTHER_BANK_ACCOUNT } from '../factories.ts';
import {
  callApi,
  nameEnquiry,
  OUR_BANK,
  type ServerFixture,
  type SignedInClient,
  sandboxCredit,
  sleep,
} from './server-fixture.ts';

const REQUEST_TIMEOUT_MS = 15_000;
/** Kobo parts of NIP amounts: .00 succeeds, .05 fails, .97 times out and succeeds on a status query. */
const NIP_KOBO_PARTS = [0, 0, 5, 97] as const;

type Headers = Record<string, string>;

export interface Account {
  readonly id: string;
  readonly accountNumber: string;
}

export interface TransferBody {
  readonly nameEnquiryReference: string;
  readonly debitAccountNumber: string;
  readonly beneficiaryBankCode: string;
  readonly beneficiaryAccountNumber: string;
  readonly amount: number;
  /** The Idempotency-Key, so the stored transfer can be found by its request. */
  readonly narration: string;
  readonly saveBeneficiary: false;
}

/** What a request got: an HTTP status and body, or no answer at all (connection lost, timeout). */
export interface Answer {
  readonly status: number | 'no answer';
  readonly body: string;
}

/** One POST /transfers: its Idempotency-Key, where it went, what it asked and what it got. */
export interface SentTransfer {
  readonly key: string;
  readonly baseUrl: string;
  readonly body: TransferBody;
  readonly amountKobo: bigint;
  readonly nip: boolean;
  answer?: Answer;
}

/** The transfer a 200 answered. */
export interface AnsweredTransfer {
  readonly _id: string;
  readonly status: string;
  readonly narration: string;
}

/** What one iteration of a load lane sends: one request, to one server or to several at once. */
export interface LaneRequest {
  readonly baseUrls: readonly string[];
  readonly body: TransferBody;
  readonly amountKobo: bigint;
  readonly nip: boolean;
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** A random amount of whole naira in [minNaira, maxNaira] and random kobo. */
export function randomKobo(minNaira: number, maxNaira: number): bigint {
  const naira = minNaira + Math.floor(Math.random() * (maxNaira - minNaira + 1));
  return BigInt(naira * 100 + Math.floor(Math.random() * 100));
}

/** A random NIP amount whose kobo part scripts the simulator's answer (docs/sandbox-nip.md). */
export function randomNipKobo(minNaira: number, maxNaira: number): bigint {
  const naira = minNaira + Math.floor(Math.random() * (maxNaira - minNaira + 1));
  return BigInt(naira * 100 + pick(NIP_KOBO_PARTS));
}

/**
 * One client's accounts, funded by sandbox credits, and a name enquiry for each of them and for
 * an account at another bank: everything a load needs to build transfer requests.
 */
export class LoadBank {
  private constructor(
    readonly client: SignedInClient,
    readonly accounts: readonly Account[],
    readonly fundedKobo: bigint,
    private readonly references: ReadonlyMap<string, string>,
  ) {}

  static async open(
    fixture: ServerFixture,
    baseUrl: string,
    client: SignedInClient,
    fundingNaira: readonly number[],
  ): Promise<LoadBank> {
    const accounts: Account[] = [];
    let fundedKobo = 0n;
    for (const naira of fundingNaira) {
      const opened = (await callApi(baseUrl, 'POST', '/accounts', client.headers, {})).data as {
        _id: string;
        accountNumber: string;
      };
      accounts.push({ id: opened._id, accountNumber: opened.accountNumber });
      if (naira > 0) {
        await sandboxCredit(baseUrl, fixture.secrets, opened.accountNumber, naira);
        fundedKobo += BigInt(naira) * 100n;
      }
    }
    const references = new Map<string, string>();
    for (const account of accounts) {
      references.set(
        account.accountNumber,
        await nameEnquiry(baseUrl, client.headers, OUR_BANK, account.accountNumber),
      );
    }
    references.set(
      OTHER_BANK_ACCOUNT,
      await nameEnquiry(baseUrl, client.headers, OTHER_BANK, OTHER_BANK_ACCOUNT),
    );
    return new LoadBank(client, accounts, fundedKobo, references);
  }

  get accountIds(): string[] {
    return this.accounts.map((account) => account.id);
  }

  /** An intra-bank transfer request. */
  intra(key: string, from: Account, to: Account, amountKobo: bigint, baseUrls: string[]) {
    return this.request(key, from, OUR_BANK, to.accountNumber, amountKobo, baseUrls);
  }

  /** A NIP transfer request to the simulator's other bank. */
  nip(key: string, from: Account, amountKobo: bigint, baseUrls: string[]) {
    return this.request(key, from, OTHER_BANK, OTHER_BANK_ACCOUNT, amountKobo, baseUrls);
  }

  private request(
    key: string,
    from: Account,
    bankCode: string,
    accountNumber: string,
    amountKobo: bigint,
    baseUrls: string[],
  ): LaneRequest {
    return {
      baseUrls,
      amountKobo,
      nip: bankCode !== OUR_BANK,
      body: {
        nameEnquiryReference: this.references.get(accountNumber) as string,
        debitAccountNumber: from.accountNumber,
        beneficiaryBankCode: bankCode,
        beneficiaryAccountNumber: accountNumber,
        amount: Number(amountKobo) / 100,
        narration: key,
        saveBeneficiary: false,
      },
    };
  }
}

/** POST /transfers with an Idempotency-Key; whatever happens is the answer. */
export async function postTransfer(
  baseUrl: string,
  headers: Headers,
  key: string,
  body: TransferBody,
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 'no answer', body: String(error) };
  }
}

/** The transfer a 200 answer carries; undefined for any other answer. */
export function answeredTransfer(answer: Answer | undefined): AnsweredTransfer | undefined {
  if (answer?.status !== 200) {
    return undefined;
  }
  return (JSON.parse(answer.body) as { data: AnsweredTransfer }).data;
}

/** Refused for want of funds: the one refusal the load provokes on purpose. */
export function isInsufficientFunds(answer: Answer | undefined): boolean {
  if (answer?.status !== 402) {
    return false;
  }
  return (JSON.parse(answer.body) as { code?: string }).code === 'INSUFFICIENT_FUNDS';
}

/**
 * Lanes that each send one transfer after another, every one with a new Idempotency-Key
 * (`label-lane-seq`), until halted; every request and its answer is kept in `sent`.
 */
export function startLoad(
  label: string,
  headers: Headers,
  lanes: readonly ((key: string) => LaneRequest)[],
) {
  const sent: SentTransfer[] = [];
  let running = true;
  let nipInFlight = 0;
  const startedAt = Date.now();
  const finished = Promise.all(
    lanes.map(async (next, lane) => {
      for (let seq = 0; running; seq += 1) {
        const key = `${label}-${lane}-${seq}`;
        const request = next(key);
        await Promise.all(
          request.baseUrls.map(async (baseUrl) => {
            const transfer: SentTransfer = {
              key,
              baseUrl,
              body: request.body,
              amountKobo: request.amountKobo,
              nip: request.nip,
            };
            sent.push(transfer);
            nipInFlight += request.nip ? 1 : 0;
            transfer.answer = await postTransfer(baseUrl, headers, key, request.body);
            nipInFlight -= request.nip ? 1 : 0;
          }),
        );
      }
    }),
  );
  return {
    sent,
    finished,
    /** No lane starts another request; those in flight go on. */
    halt() {
      running = false;
    },
    elapsedMs: () => Date.now() - startedAt,
    nipInFlight: () => nipInFlight,
    answeredOk: () => sent.filter((transfer) => transfer.answer?.status === 200).length,
  };
}

/** How the answers came out, and every answer that is neither a transfer nor a refusal. */
export function tally(sent: readonly SentTransfer[]) {
  const counts = { ok: 0, okNip: 0, refused: 0, noAnswer: 0 };
  const unexpected: string[] = [];
  for (const transfer of sent) {
    const answer = transfer.answer;
    if (answer?.status === 200) {
      counts.ok += 1;
      counts.okNip += transfer.nip ? 1 : 0;
    } else if (isInsufficientFunds(answer)) {
      counts.refused += 1;
    } else if (answer?.status === 'no answer') {
      counts.noAnswer += 1;
    } else {
      unexpected.push(`${transfer.key} → ${answer?.status}: ${answer?.body}`);
    }
  }
  return { ...counts, unexpected };
}

interface StoredTransfer {
  id: string;
  type: string;
  status: string;
  narration: string;
  amount_kobo: bigint;
  debit_account_number: string;
  credit_account_number: string;
  credit_bank_code: string;
}

/** The client's Outwards transfers, by narration (which is the request's Idempotency-Key). */
export async function outwardsByKey(db: Db, clientId: string) {
  const rows = await db.query<StoredTransfer>(
    `SELECT id, type, status, narration, amount_kobo, debit_account_number, credit_account_number,
            credit_bank_code
       FROM transfers WHERE client_id = $1 AND type = 'Outwards'`,
    [clientId],
  );
  return new Map(rows.map((row) => [row.narration, row]));
}

/**
 * Every 200 is a transfer in the database, as answered: the same id for every answer to one key,
 * the request's account, beneficiary and amount, and a status the answer allows (an intra-bank
 * transfer is Completed; a NIP one answered final stays so, one answered Processing may have
 * settled since).
 */
export async function answeredButNotStored(
  db: Db,
  sent: readonly SentTransfer[],
): Promise<string[]> {
  const ok = sent.flatMap((transfer) => {
    const answered = answeredTransfer(transfer.answer);
    return answered === undefined ? [] : [{ transfer, answered }];
  });
  const rows = await db.query<StoredTransfer>(
    `SELECT id, type, status, narration, amount_kobo, debit_account_number, credit_account_number,
            credit_bank_code
       FROM transfers WHERE id = ANY ($1)`,
    [ok.map(({ answered }) => answered._id)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const idByKey = new Map<string, string>();
  const problems: string[] = [];
  for (const { transfer, answered } of ok) {
    const { key, body } = transfer;
    const earlierId = idByKey.get(key) ?? answered._id;
    idByKey.set(key, earlierId);
    if (earlierId !== answered._id) {
      problems.push(`${key}: answered ${earlierId} and ${answered._id}`);
    }
    const row = byId.get(answered._id);
    const expected = {
      type: 'Outwards',
      narration: key,
      amount_kobo: transfer.amountKobo,
      debit_account_number: body.debitAccountNumber,
      credit_account_number: body.beneficiaryAccountNumber,
      credit_bank_code: body.beneficiaryBankCode,
    };
    const stored =
      row === undefined
        ? undefined
        : Object.fromEntries(
            Object.keys(expected).map((field) => [field, row[field as keyof StoredTransfer]]),
          );
    if (JSON.stringify(stored, bigintJson) !== JSON.stringify(expected, bigintJson)) {
      problems.push(
        `${key}: answered ${answered._id} for ${JSON.stringify(expected, bigintJson)}, ` +
          `stored ${JSON.stringify(stored, bigintJson)}`,
      );
      continue;
    }
    const allowed = transfer.nip
      ? answered.status === 'Processing'
        ? ['Processing', 'Completed', 'Failed']
        : [answered.status]
      : ['Completed'];
    if (!allowed.includes(answered.status) || !allowed.includes(row?.status ?? '')) {
      problems.push(`${key}: answered ${answered.status}, stored ${row?.status}`);
    }
  }
  return problems;
}

function bigintJson(_key: string, value: unknown) {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Every one of the client's transfers is whole, never half-applied: an intra-bank one is
 * Completed with its recipient's Inwards twin and one journal moving exactly its amount between
 * the two accounts; a NIP one holds its amount, fee and VAT, and its hold, journal and status
 * agree (Processing: pending, no journal; Completed: posted, one journal taking the total from
 * the account; Failed: voided, no journal). No journal names a missing transfer, no hold on the
 * client's accounts belongs to no transfer, and no Inwards twin lacks its Outwards side.
 */
export async function halfAppliedTransfers(db: Db, clientId: string): Promise<string[]> {
  const intraBank = await db.query<Record<string, unknown>>(
    `SELECT o.id, o.status, o.amount_kobo,
            (SELECT count(*) FROM transfers i
              WHERE i.session_id = o.session_id AND i.type = 'Inwards' AND i.status = 'Completed'
                AND i.amount_kobo = o.amount_kobo
                AND i.credit_account_number = o.credit_account_number) AS twins,
            (SELECT count(*) FROM ledger_journals j WHERE j.transfer_id = o.id) AS journals,
            (SELECT coalesce(sum(e.amount_kobo), 0) FROM ledger_entries e
               JOIN ledger_journals j ON j.id = e.journal_id
              WHERE j.transfer_id = o.id AND e.account_id = o.account_id)::bigint AS debited,
            (SELECT coalesce(sum(e.amount_kobo), 0) FROM ledger_entries e
               JOIN ledger_journals j ON j.id = e.journal_id
               JOIN transfers i ON i.session_id = o.session_id AND i.type = 'Inwards'
              WHERE j.transfer_id = o.id AND e.account_id = i.account_id)::bigint AS credited
       FROM transfers o
      WHERE o.client_id = $1 AND o.type = 'Outwards' AND o.credit_bank_code = $2`,
    [clientId, OUR_BANK],
  );
  const problems = intraBank
    .filter(
      (row) =>
        row.status !== 'Completed' ||
        row.twins !== 1n ||
        row.journals !== 1n ||
        row.debited !== -(row.amount_kobo as bigint) ||
        row.credited !== row.amount_kobo,
    )
    .map((row) => `intra-bank transfer not whole: ${JSON.stringify(row, bigintJson)}`);
  const nip = await db.query<Record<string, unknown>>(
    `SELECT o.id, o.status, o.amount_kobo + o.fee_kobo + o.vat_kobo AS total,
            h.status AS hold_status, h.amount_kobo AS held, h.account_id = o.account_id AS own_hold,
            (SELECT count(*) FROM ledger_journals j WHERE j.transfer_id = o.id) AS journals,
            (SELECT coalesce(sum(e.amount_kobo), 0) FROM ledger_entries e
               JOIN ledger_journals j ON j.id = e.journal_id
              WHERE j.transfer_id = o.id AND e.account_id = o.account_id)::bigint AS debited
       FROM transfers o LEFT JOIN ledger_holds h ON h.id = o.hold_id
      WHERE o.client_id = $1 AND o.type = 'Outwards' AND o.credit_bank_code <> $2`,
    [clientId, OUR_BANK],
  );
  const expectedByStatus: Record<string, { hold: string; journals: bigint; debited: boolean }> = {
    Processing: { hold: 'pending', journals: 0n, debited: false },
    Completed: { hold: 'posted', journals: 1n, debited: true },
    Failed: { hold: 'voided', journals: 0n, debited: false },
  };
  for (const row of nip) {
    const expected = expectedByStatus[row.status as string];
    if (
      expected === undefined ||
      row.hold_status !== expected.hold ||
      row.held !== row.total ||
      row.own_hold !== true ||
      row.journals !== expected.journals ||
      row.debited !== (expected.debited ? -(row.total as bigint) : 0n)
    ) {
      problems.push(`NIP transfer not whole: ${JSON.stringify(row, bigintJson)}`);
    }
  }
  const orphans = await db.query<{ what: string; id: string }>(
    `SELECT 'journal of no transfer' AS what, j.id FROM ledger_journals j
      WHERE j.transfer_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.id = j.transfer_id)
     UNION ALL
     SELECT 'hold of no transfer', h.id FROM ledger_holds h JOIN accounts a ON a.id = h.account_id
      WHERE a.client_id = $1 AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.hold_id = h.id)
     UNION ALL
     SELECT 'Inwards twin without its Outwards', i.id FROM transfers i
      WHERE i.client_id = $1 AND i.type = 'Inwards' AND i.debit_bank_code = $2
        AND NOT EXISTS (SELECT 1 FROM transfers o
                         WHERE o.session_id = i.session_id AND o.type = 'Outwards')`,
    [clientId, OUR_BANK],
  );
  problems.push(...orphans.map((row) => `${row.what}: ${row.id}`));
  return problems;
}

/**
 * The money adds up: every ledger invariant holds (balanced journals, balance = Σ entries,
 * gapless numbering), no customer account is overdrawn or holds more than it has, each of the
 * bank's accounts has exactly its completed transfers' net as balance and its Processing NIP
 * transfers as held funds, and together they hold what was funded less what left for other banks.
 */
export async function moneyProblems(fixture: ServerFixture, bank: LoadBank): Promise<string[]> {
  const problems = (await fixture.ledgerViolations()).map(
    ([name, count]) => `ledger invariant ${name}: ${count} violations`,
  );
  const overdrawn = await fixture.db.query<{ id: string }>(
    `SELECT id FROM ledger_accounts
      WHERE kind = 'customer' AND (balance_kobo < 0 OR balance_kobo < held_kobo)`,
  );
  problems.push(...overdrawn.map((row) => `overdrawn: ${row.id}`));
  const disagreeing = await fixture.db.query<Record<string, unknown>>(
    `WITH moved AS (
       SELECT account_id,
              coalesce(sum(CASE WHEN type = 'Inwards'
                                THEN amount_kobo - fee_kobo - vat_kobo - stamp_duty_kobo
                                ELSE -(amount_kobo + fee_kobo + vat_kobo + stamp_duty_kobo) END)
                         FILTER (WHERE status = 'Completed'), 0) AS net,
              coalesce(sum(amount_kobo + fee_kobo + vat_kobo)
                         FILTER (WHERE status = 'Processing' AND type = 'Outwards'), 0) AS pending
         FROM transfers WHERE account_id = ANY ($1) GROUP BY account_id)
     SELECT l.id, l.balance_kobo, l.held_kobo, m.net, m.pending
       FROM ledger_accounts l LEFT JOIN moved m ON m.account_id = l.id
      WHERE l.id = ANY ($1)
        AND (l.balance_kobo <> coalesce(m.net, 0) OR l.held_kobo <> coalesce(m.pending, 0))`,
    [bank.accountIds],
  );
  problems.push(
    ...disagreeing.map(
      (row) => `balance disagrees with the transfers: ${JSON.stringify(row, bigintJson)}`,
    ),
  );
  const [totals] = await fixture.db.query<{ balances: bigint; sent_out: bigint }>(
    `SELECT (SELECT coalesce(sum(balance_kobo), 0) FROM ledger_accounts
              WHERE id = ANY ($1))::bigint AS balances,
            (SELECT coalesce(sum(amount_kobo + fee_kobo + vat_kobo), 0) FROM transfers
              WHERE account_id = ANY ($1) AND type = 'Outwards' AND status = 'Completed'
                AND credit_bank_code <> $2)::bigint AS sent_out`,
    [bank.accountIds, OUR_BANK],
  );
  if (totals === undefined || totals.balances !== bank.fundedKobo - totals.sent_out) {
    problems.push(
      `money not conserved: funded ${bank.fundedKobo}, sent to other banks ${totals?.sent_out}, ` +
        `balances ${totals?.balances}`,
    );
  }
  return problems;
}

/** Idempotency-Keys (narrations) that more than one of the client's transfers carries. */
export async function keysUsedTwice(db: Db, clientId: string): Promise<string[]> {
  const rows = await db.query<{ narration: string; count: bigint }>(
    `SELECT narration, count(*) FROM transfers WHERE client_id = $1 AND type = 'Outwards'
      GROUP BY narration HAVING count(*) > 1`,
    [clientId],
  );
  return rows.map((row) => `${row.narration}: ${row.count} transfers`);
}

/** Waits until none of the client's transfers is Processing; false if some still are. */
export async function settled(db: Db, clientId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.query<{ count: bigint }>(
      `SELECT count(*) FROM transfers WHERE client_id = $1 AND status = 'Processing'`,
      [clientId],
    );
    if (row?.count === 0n) {
      return true;
    }
    if (Date.now() > deadline) {
      return false;
    }
    await sleep(100);
  }
}

/**
 * Waits until no other session on the database is running a statement or has a transaction
 * open: after a SIGKILL, the dead server's sessions finish (a COMMIT already sent still lands)
 * or roll back, and the state read afterwards no longer changes under the checks.
 */
export async function quiescent(db: Db, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.query<{ count: bigint }>(
      `SELECT count(*) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND backend_type = 'client backend' AND state <> 'idle'`,
    );
    if (row?.count === 0n) {
      return true;
    }
    if (Date.now() > deadline) {
      return false;
    }
    await sleep(50);
  }
}
