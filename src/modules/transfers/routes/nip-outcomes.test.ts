import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxCredit, signedInClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import { NO_RESPONSE_MESSAGE, responseMessageFor } from '../../../rails/nip/nip-response-codes.ts';
import { NIP_MAGIC_KOBO } from '../../../rails/nip/nip-simulator.ts';
import {
  createStatusQueryWorker,
  type StatusQueryWorker,
} from '../outbound/status-query-worker.ts';
import { findTransferById } from '../transfer-repository.ts';

/**
 * Every outcome class of the sandbox NIP simulator (docs/sandbox-nip.md), driven end to end
 * through the HTTP API: the transfer's status and response code at each step, the money
 * (held while Processing, posted on success, released on failure), the statement, the GL
 * accounts, and the `transfer` webhook written to the outbox once, on the final status only.
 */

const OTHER_BANK = '000013';
const BENEFICIARY = '0123456789';
const FEE_KOBO = 1_000; // ₦10 up to ₦5,000 (default NIP_FEE_SCHEDULE)
const VAT_KOBO = 75; // 7.5 % of the fee

type Status = 'Processing' | 'Completed' | 'Failed';
interface Step {
  readonly status: Status;
  readonly code: string | null;
}
interface OutcomeCase {
  readonly kobo: bigint;
  readonly rehearses: string;
  /** What POST /transfers answers (the rail's answer to sendTransfer). */
  readonly send: Step;
  /** What each status query in turn settles it to; the last is the final status. */
  readonly statusQueries: readonly Step[];
}

const processing = (code: string | null): Step => ({ status: 'Processing', code });
const completed: Step = { status: 'Completed', code: '00' };
const failed = (code: string): Step => ({ status: 'Failed', code });

/** Settled by sendTransfer's answer alone. */
const DEFINITIVE: readonly OutcomeCase[] = [
  { kobo: 0n, rehearses: 'the happy path', send: completed, statusQueries: [] },
  { kobo: 37n, rehearses: 'any unlisted kobo part succeeds', send: completed, statusQueries: [] },
  { kobo: 5n, rehearses: 'do not honor', send: failed('05'), statusQueries: [] },
  { kobo: 7n, rehearses: 'invalid account', send: failed('07'), statusQueries: [] },
  { kobo: 51n, rehearses: 'no sufficient funds', send: failed('51'), statusQueries: [] },
  { kobo: 61n, rehearses: 'transfer limit exceeded', send: failed('61'), statusQueries: [] },
];

/** Unknown on send: Processing with the funds held until a status query settles it. */
const AMBIGUOUS: readonly OutcomeCase[] = [
  {
    kobo: 97n,
    rehearses: 'timeout (no code), the money arrived',
    send: processing(null),
    statusQueries: [completed],
  },
  {
    kobo: 96n,
    rehearses: 'system malfunction, turns out well',
    send: processing('96'),
    statusQueries: [completed],
  },
  {
    kobo: 1n,
    rehearses: 'status unknown, turns out a failure',
    send: processing('01'),
    statusQueries: [failed('05')],
  },
  {
    kobo: 9n,
    rehearses: 'in progress, TSQ itself pending once',
    send: processing('09'),
    statusQueries: [processing('09'), completed],
  },
  {
    kobo: 94n,
    rehearses: 'duplicate answer, the original went through',
    send: processing('94'),
    statusQueries: [completed],
  },
];

const koboOf = (naira: number) => Math.round(naira * 100);
const nairaFor = (kobo: bigint) => 100 + Number(kobo) / 100;
const sortEntries = (entries: [string, bigint][]) =>
  entries.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : Number(x - y)));
const label = (kobo: bigint) => `.${kobo.toString().padStart(2, '0')}`;

interface TransferBody {
  _id: string;
  sessionId: string;
  paymentReference: string;
  narration: string;
  amount: number;
  fees: number;
  vat: number;
  status: Status;
  responseCode: string | null;
  responseMessage: string | null;
  approvedAt?: string;
  declinedAt?: string;
}

interface StatementLine {
  type: 'Credit' | 'Debit';
  amount: number;
  narration: string;
  reference: string | null;
  transferId: string | null;
  journalId: string;
}

/** Balances in kobo: the customer account (as the API shows it) and the GL accounts (SQL). */
interface Snapshot {
  available: number;
  book: number;
  locked: number;
  nipSettlement: bigint;
  feeIncome: bigint;
  vatPayable: bigint;
}

describe('NIP transfers: every simulator outcome, through the API to the ledger', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  let clientId: string;
  let accountId: string;
  let accountNumber: string;
  let worker: StatusQueryWorker;
  let schedule: readonly number[];

  before(async () => {
    // Long-lived tokens: one test lets hours pass with a transfer in flight.
    testApp = await buildTestApp({ ACCESS_TOKEN_TTL_SECONDS: '86400' });
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    clientId = signedIn.client.ibsClientId;
    accountId = signedIn.client.mainAccountId;
    accountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, accountNumber, 9_000);
    schedule = testApp.config.transfers.statusQueryScheduleSeconds;
    worker = createStatusQueryWorker({
      db: testApp.db,
      clock: testApp.clock,
      outbound: testApp.services.outboundTransfers,
      batchSize: 16,
      pollIntervalMs: 1_000,
      claimSeconds: 60,
    });
  });
  after(() => testApp?.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  async function enquire(accountNo = BENEFICIARY): Promise<string> {
    const response = await call('POST', '/transfers/name-enquiry', {
      bankCode: OTHER_BANK,
      accountNumber: accountNo,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data.sessionId;
  }

  async function place(amount: number, extra: Record<string, unknown> = {}) {
    const response = await call('POST', '/transfers', {
      nameEnquiryReference: await enquire(),
      debitAccountNumber: accountNumber,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: BENEFICIARY,
      amount,
      saveBeneficiary: false,
      ...extra,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as TransferBody;
  }

  let tsqCount = 0;
  /** TSQ through the API, alternating the two published paths and the two keys. */
  async function tsq(transfer: TransferBody): Promise<TransferBody> {
    tsqCount += 1;
    const response =
      tsqCount % 2 === 0
        ? await call('POST', '/transfers/tqs', { sessionId: transfer.sessionId })
        : await call('POST', '/transfers/status', { paymentReference: transfer.paymentReference });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json().data as TransferBody;
    assert.equal(body._id, transfer._id);
    return body;
  }

  async function snapshot(): Promise<Snapshot> {
    const response = await call('GET', `/accounts/${accountId}`);
    assert.equal(response.statusCode, 200, response.body);
    const account = response.json().data;
    const gl = await testApp.db.query<{ id: string; balance_kobo: bigint }>(
      'SELECT id, balance_kobo FROM ledger_accounts WHERE id = ANY($1)',
      [[GL_ACCOUNTS.nipSettlement, GL_ACCOUNTS.feeIncome, GL_ACCOUNTS.vatPayable]],
    );
    const glBalance = (id: string) => {
      const row = gl.find((candidate) => candidate.id === id);
      assert.ok(row, `GL account ${id} exists`);
      return row.balance_kobo;
    };
    return {
      available: koboOf(account.accountBalance),
      book: koboOf(account.bookBalance),
      locked: koboOf(account.lockedBalance),
      nipSettlement: glBalance(GL_ACCOUNTS.nipSettlement),
      feeIncome: glBalance(GL_ACCOUNTS.feeIncome),
      vatPayable: glBalance(GL_ACCOUNTS.vatPayable),
    };
  }

  async function statementLines(transferId: string): Promise<StatementLine[]> {
    const response = await call('GET', `/accounts/${accountId}/statement?limit=100`);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.ok(body.pagination.total <= 100, 'the whole statement fits on one page');
    return (body.data as StatementLine[]).filter((line) => line.transferId === transferId);
  }

  async function webhookPayloads(transferId: string) {
    const rows = await testApp.db.query<{ client_id: string; payload: unknown }>(
      `SELECT client_id, payload FROM webhook_events
        WHERE type = 'transfer' AND payload->'data'->>'_id' = $1 ORDER BY created_at, id`,
      [transferId],
    );
    return rows.map((row) => {
      assert.equal(row.client_id, clientId);
      const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
      return payload as { type: string; data: TransferBody };
    });
  }

  async function ledgerState(transferId: string) {
    const [row] = await testApp.db.query<{ hold_id: string | null; next: Date | null }>(
      'SELECT hold_id, next_status_query_at AS next FROM transfers WHERE id = $1',
      [transferId],
    );
    assert.ok(row?.hold_id, 'a NIP transfer has a hold');
    const [hold] = await testApp.db.query<{ status: string; amount_kobo: bigint }>(
      'SELECT status, amount_kobo FROM ledger_holds WHERE id = $1',
      [row.hold_id],
    );
    const entries = await testApp.db.query<{ account_id: string; amount_kobo: bigint }>(
      `SELECT e.account_id, e.amount_kobo FROM ledger_entries e
         JOIN ledger_journals j ON j.id = e.journal_id
        WHERE j.transfer_id = $1`,
      [transferId],
    );
    const journals = await testApp.db.query<{ id: string }>(
      'SELECT id FROM ledger_journals WHERE transfer_id = $1',
      [transferId],
    );
    return { hold, entries, journals: journals.length, nextStatusQueryAt: row.next };
  }

  const totalKobo = (transfer: TransferBody) =>
    koboOf(transfer.amount) + koboOf(transfer.fees) + koboOf(transfer.vat);

  function assertStep(transfer: TransferBody, step: Step, where: string) {
    assert.equal(transfer.status, step.status, `${where}: status`);
    assert.equal(transfer.responseCode, step.code, `${where}: responseCode`);
    assert.equal(
      transfer.responseMessage,
      step.code === null ? NO_RESPONSE_MESSAGE : responseMessageFor(step.code),
      `${where}: responseMessage`,
    );
  }

  /** Processing: the whole cost is held, nothing is posted, no webhook yet. */
  async function assertHeld(transfer: TransferBody, before: Snapshot, where: string) {
    const now = await snapshot();
    const total = totalKobo(transfer);
    assert.equal(now.locked, before.locked + total, `${where}: locked = amount + fee + VAT`);
    assert.equal(now.book, before.book, `${where}: book balance unchanged`);
    assert.equal(now.available, before.available - total, `${where}: available`);
    assert.deepEqual(
      [now.nipSettlement, now.feeIncome, now.vatPayable],
      [before.nipSettlement, before.feeIncome, before.vatPayable],
      `${where}: GL untouched`,
    );
    assert.deepEqual(await statementLines(transfer._id), [], `${where}: no statement line`);
    const ledger = await ledgerState(transfer._id);
    assert.equal(ledger.hold?.status, 'pending', `${where}: hold pending`);
    assert.equal(ledger.hold?.amount_kobo, BigInt(total), `${where}: hold amount`);
    assert.equal(ledger.journals, 0, `${where}: no journal`);
    assert.ok(ledger.nextStatusQueryAt !== null, `${where}: a status query is scheduled`);
    assert.deepEqual(await webhookPayloads(transfer._id), [], `${where}: no webhook`);
  }

  /** Final: posted (amount, fee and VAT lines) or released (nothing moved), one webhook. */
  async function assertFinal(transfer: TransferBody, before: Snapshot, where: string) {
    const now = await snapshot();
    const ledger = await ledgerState(transfer._id);
    const amount = koboOf(transfer.amount);
    assert.equal(koboOf(transfer.fees), FEE_KOBO, `${where}: fee`);
    assert.equal(koboOf(transfer.vat), VAT_KOBO, `${where}: VAT`);
    if (transfer.status === 'Completed') {
      const total = amount + FEE_KOBO + VAT_KOBO;
      assert.ok(transfer.approvedAt, `${where}: approvedAt`);
      assert.equal(
        ledger.nextStatusQueryAt?.getTime(),
        Date.parse(transfer.approvedAt) + testApp.config.transfers.returnCheckSeconds * 1000,
        `${where}: one more status query after the return window`,
      );
      assert.equal(transfer.declinedAt, undefined, `${where}: no declinedAt`);
      assert.deepEqual(
        [now.available, now.book, now.locked],
        [before.available - total, before.book - total, before.locked],
        `${where}: balances after posting`,
      );
      assert.deepEqual(
        [
          now.nipSettlement - before.nipSettlement,
          now.feeIncome - before.feeIncome,
          now.vatPayable - before.vatPayable,
        ],
        [BigInt(amount), BigInt(FEE_KOBO), BigInt(VAT_KOBO)],
        `${where}: GL accounts credited`,
      );
      assert.equal(ledger.hold?.status, 'posted', `${where}: hold posted`);
      assert.equal(ledger.journals, 1, `${where}: one journal`);
      assert.deepEqual(
        sortEntries(ledger.entries.map((entry) => [entry.account_id, entry.amount_kobo])),
        sortEntries([
          [accountId, BigInt(-amount)],
          [accountId, BigInt(-FEE_KOBO)],
          [accountId, BigInt(-VAT_KOBO)],
          [GL_ACCOUNTS.feeIncome, BigInt(FEE_KOBO)],
          [GL_ACCOUNTS.nipSettlement, BigInt(amount)],
          [GL_ACCOUNTS.vatPayable, BigInt(VAT_KOBO)],
        ]),
        `${where}: journal entries`,
      );
      const lines = await statementLines(transfer._id);
      assert.deepEqual(
        lines
          .map((line) => ({
            type: line.type,
            amount: koboOf(line.amount),
            narration: line.narration,
            reference: line.reference,
          }))
          .sort((a, b) => b.amount - a.amount),
        [
          {
            type: 'Debit',
            amount,
            narration: transfer.narration,
            reference: transfer.paymentReference,
          },
          {
            type: 'Debit',
            amount: FEE_KOBO,
            narration: `NIP transfer fee ${transfer.sessionId}`,
            reference: transfer.paymentReference,
          },
          {
            type: 'Debit',
            amount: VAT_KOBO,
            narration: `VAT on transfer fee ${transfer.sessionId}`,
            reference: transfer.paymentReference,
          },
        ],
        `${where}: statement lines`,
      );
      assert.equal(new Set(lines.map((line) => line.journalId)).size, 1, `${where}: one journal`);
    } else {
      assert.equal(transfer.status, 'Failed', where);
      assert.equal(ledger.nextStatusQueryAt, null, `${where}: no further status query`);
      assert.ok(transfer.declinedAt, `${where}: declinedAt`);
      assert.equal(transfer.approvedAt, undefined, `${where}: no approvedAt`);
      assert.deepEqual(now, before, `${where}: nothing moved, nothing held`);
      assert.equal(ledger.hold?.status, 'voided', `${where}: hold voided`);
      assert.equal(ledger.journals, 0, `${where}: no journal`);
      assert.deepEqual(await statementLines(transfer._id), [], `${where}: no statement line`);
    }
    const events = await webhookPayloads(transfer._id);
    assert.equal(events.length, 1, `${where}: exactly one transfer webhook`);
    assert.equal(events[0]?.type, 'transfer');
    assert.deepEqual(events[0]?.data, transfer, `${where}: the webhook shows the final transfer`);
  }

  /** The transfer as stored, read from the history (which never asks the rail). */
  async function current(transfer: TransferBody): Promise<TransferBody> {
    const response = await call('GET', `/transfers?accountId=${accountId}&limit=100`);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.ok(Number(body.pagination.total) <= 100, 'the whole history fits on one page');
    const found = (body.data as TransferBody[]).find((item) => item._id === transfer._id);
    assert.ok(found, `transfer ${transfer._id} is listed`);
    return found;
  }

  it('covers every magic kobo part of the simulator', () => {
    const tested = [...DEFINITIVE, ...AMBIGUOUS]
      .map((outcome) => outcome.kobo)
      .filter((kobo) => NIP_MAGIC_KOBO.has(kobo));
    // .81 succeeds and comes back later: outbound/transfer-return.test.ts drives it end to end.
    const settling = [...NIP_MAGIC_KOBO].filter(([, script]) => script.returns !== true);
    assert.deepEqual(
      tested.sort((a, b) => Number(a - b)),
      settling.map(([kobo]) => kobo).sort((a, b) => Number(a - b)),
    );
    for (const outcome of [...DEFINITIVE, ...AMBIGUOUS]) {
      const script = NIP_MAGIC_KOBO.get(outcome.kobo);
      assert.equal(
        script === undefined ? '00' : script.send,
        outcome.send.code,
        `${label(outcome.kobo)} send`,
      );
    }
  });

  describe('settled by the answer to the transfer itself', () => {
    for (const outcome of DEFINITIVE) {
      it(`${label(outcome.kobo)} (${outcome.rehearses}): ${outcome.send.status} ${outcome.send.code}`, async () => {
        const before = await snapshot();
        const sent = await place(nairaFor(outcome.kobo));
        assert.equal(koboOf(sent.amount), 10_000 + Number(outcome.kobo));
        assertStep(sent, outcome.send, 'POST /transfers');
        await assertFinal(sent, before, 'POST /transfers');
        // A status query of a final transfer answers it as it is and changes nothing.
        const again = await tsq(sent);
        assert.deepEqual(again, sent);
        testApp.clock.advanceSeconds((schedule[0] ?? 30) + 1);
        assert.equal(await worker.runOnce(), 0, 'the worker has nothing to ask about');
        await assertFinal(await current(sent), before, 'later');
      });
    }
  });

  for (const drive of ['POST /transfers/status and /tqs', 'the status query worker'] as const) {
    describe(`unknown on send, settled by ${drive}`, () => {
      for (const outcome of AMBIGUOUS) {
        const steps = outcome.statusQueries.map((step) => `${step.status} ${step.code}`);
        it(`${label(outcome.kobo)} (${outcome.rehearses}): Processing ${outcome.send.code ?? '(no code)'} -> ${steps.join(' -> ')}`, async () => {
          const before = await snapshot();
          let transfer = await place(nairaFor(outcome.kobo));
          assertStep(transfer, outcome.send, 'POST /transfers');
          await assertHeld(transfer, before, 'POST /transfers');
          for (const [index, step] of outcome.statusQueries.entries()) {
            const where = `status query ${index + 1}`;
            if (drive === 'the status query worker') {
              testApp.clock.advanceSeconds(schedule[Math.min(index, schedule.length - 1)] ?? 0);
              assert.equal(await worker.runOnce(), 1, `${where}: the worker claims it`);
              transfer = await current(transfer);
            } else {
              transfer = await tsq(transfer);
            }
            assertStep(transfer, step, where);
            if (step.status === 'Processing') {
              await assertHeld(transfer, before, where);
            }
          }
          await assertFinal(transfer, before, 'final');
          // Asking again neither moves money nor writes a second webhook.
          assert.deepEqual(await tsq(transfer), transfer);
          testApp.clock.advanceSeconds(60);
          assert.equal(await worker.runOnce(), 0);
          await assertFinal(await current(transfer), before, 'after more queries');
        });
      }
    });
  }

  describe('nothing is reversed on a timeout alone', () => {
    it('.97 stays Processing with the funds held, however long, until a status query answers', async () => {
      const before = await snapshot();
      const sent = await place(250.97, { paymentReference: 'TIMEOUT-1' });
      assertStep(sent, processing(null), 'POST /transfers');
      await assertHeld(sent, before, 'after the timeout');
      // Not due yet: the worker leaves it alone.
      testApp.clock.advanceSeconds((schedule[0] ?? 30) - 1);
      assert.equal(await worker.runOnce(), 0);
      await assertHeld(sent, before, 'before the first status query is due');
      // Hours pass without a status query (no worker running): still held, never reversed.
      testApp.clock.advanceSeconds(6 * 3600);
      await assertHeld(sent, before, 'six hours later');
      const listed = await call('GET', `/transfers?accountId=${accountId}&status=Processing`);
      assert.deepEqual(
        listed.json().data.map((item: TransferBody) => item._id),
        [sent._id],
      );
      const settled = await tsq(sent);
      assertStep(settled, completed, 'status query');
      await assertFinal(settled, before, 'after the status query');
    });

    it('a replayed request does not resend; a resent session id (94) cannot pay twice', async () => {
      // Not reachable through the API: every transfer gets a fresh session id and a replay
      // answers the stored transfer. So the resend is driven through the settlement directly.
      const before = await snapshot();
      const body = {
        nameEnquiryReference: await enquire(),
        paymentReference: 'TIMEOUT-2',
        narration: 'Invoice 7',
      };
      const sent = await place(300.97, body);
      assertStep(sent, processing(null), 'POST /transfers');
      const replay = await place(300.97, body);
      assert.equal(replay._id, sent._id);
      assertStep(replay, processing(null), 'replay (a resend would answer 94)');
      await assertHeld(sent, before, 'after the replay');

      const settlement = testApp.services.outboundTransfers;
      const record = await findTransferById(testApp.db, sent._id);
      assert.ok(record);
      const resent = await settlement.dispatch(record);
      assert.equal(resent.status, 'Processing');
      assert.equal(resent.responseCode, '94');
      assert.equal(resent.responseMessage, responseMessageFor('94'));
      const afterResend = await current(sent);
      await assertHeld(afterResend, before, 'after the resend');

      const settled = await tsq(afterResend);
      assertStep(settled, completed, 'status query (the original session carries on)');
      await assertFinal(settled, before, 'settled');

      const resentAgain = await settlement.dispatch(record);
      assert.equal(resentAgain.status, 'Completed', 'a late 94 does not reopen it');
      assert.equal(resentAgain.responseCode, '00');
      await assertFinal(await current(sent), before, 'after a second resend');
    });
  });

  describe('name enquiry magic accounts: no transfer can be placed', () => {
    const cases = [
      {
        rule: 'ending 0000: rejected 07',
        accountNumber: '0123450000',
        statusCode: 400,
        code: 'NAME_ENQUIRY_FAILED',
        message: responseMessageFor('07'),
      },
      {
        rule: 'ending 9999: unavailable 91',
        accountNumber: '0123459999',
        statusCode: 402,
        code: 'RAIL_UNAVAILABLE',
        message: responseMessageFor('91'),
      },
    ];
    for (const { rule, accountNumber: target, statusCode, code, message } of cases) {
      it(`${rule}: the enquiry is refused and a transfer to it holds nothing`, async () => {
        const before = await snapshot();
        const count = async (sql: string, params: readonly string[]) =>
          Number(
            (await testApp.db.query<{ n: bigint }>(`SELECT count(*) AS n FROM ${sql}`, params))[0]
              ?.n,
          );
        const holdsBefore = await count('ledger_holds WHERE account_id = $1', [accountId]);
        const eventsBefore = await count('webhook_events WHERE client_id = $1', [clientId]);

        const enquiry = await call('POST', '/transfers/name-enquiry', {
          bankCode: OTHER_BANK,
          accountNumber: target,
        });
        assert.equal(enquiry.statusCode, statusCode, enquiry.body);
        assert.equal(enquiry.json().code, code);
        assert.equal(enquiry.json().message, message);
        assert.equal(enquiry.json().data, undefined);
        assert.equal(await count('name_enquiries WHERE account_number = $1', [target]), 0);

        // Neither a made-up reference nor one for another account gets a transfer through.
        const references = [`${testApp.config.institutionCode}${'0'.repeat(24)}`, await enquire()];
        for (const nameEnquiryReference of references) {
          const attempt = await call('POST', '/transfers', {
            nameEnquiryReference,
            debitAccountNumber: accountNumber,
            beneficiaryBankCode: OTHER_BANK,
            beneficiaryAccountNumber: target,
            amount: 100,
            saveBeneficiary: false,
          });
          assert.equal(attempt.statusCode, 400, attempt.body);
          assert.equal(attempt.json().code, 'NAME_ENQUIRY_INVALID');
        }
        assert.equal(await count('transfers WHERE credit_account_number = $1', [target]), 0);
        assert.equal(await count('ledger_holds WHERE account_id = $1', [accountId]), holdsBefore);
        assert.equal(await count('webhook_events WHERE client_id = $1', [clientId]), eventsBefore);
        assert.deepEqual(await snapshot(), before);
      });
    }
  });
});
