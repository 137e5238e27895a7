import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { openSubAccount, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { pdfLines, statementTotals } from '../../../test/pdf-text.ts';
import {
  advanceClock,
  buildSandboxApp,
  type SandboxApp,
  signInToSandbox,
} from '../../../test/sandbox-controls.ts';
import { SmtpReceiver } from '../../../test/smtp-receiver.ts';
import { lagosDayStart } from '../../shared/lagos-time.ts';
import { addMonths, lagosMonthOf, monthName } from './statement-months.ts';

const BANK_CODE = '999240';
const STATEMENT_SUBJECT = /statement of account/;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Monthly statements end to end, on the sandbox's running clock with the background workers
 * started as the server starts them: accounts opted in (or not) through the API, money moved,
 * the clock moved across a month end through the admin API; a real SMTP server on 127.0.0.1
 * receives the emails, whose PDF is read back with pdfjs.
 */
describe('monthly statements', { timeout: 120_000 }, () => {
  const receiver = new SmtpReceiver();
  let sandbox: SandboxApp | undefined;

  before(async () => {
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    receiver.received.length = 0;
  });

  async function start(env: Record<string, string> = {}) {
    sandbox = await buildSandboxApp({
      SMTP_URL: receiver.url(),
      BANK_NAME: 'Test Bank',
      PROVIDER_BREAKER_ENABLED: 'false',
      ALERTS_POLL_INTERVAL_MS: '50',
      ...env,
    });
    return sandbox;
  }

  /** Moves the bank's clock to `days` days (and an hour) into the month `months` ahead. */
  async function moveToMonth(app: SandboxApp, months: number, days = 0) {
    const target = lagosDayStart(addMonths(lagosMonthOf(app.clock.now()), months));
    const seconds = Math.ceil(
      (target.getTime() + days * 86_400_000 + 3_600_000 - app.clock.now().getTime()) / 1000,
    );
    await advanceClock(app.app, `PT${seconds}S`);
  }

  async function settings(
    app: SandboxApp,
    headers: Record<string, string>,
    id: string,
    body: object,
  ) {
    const response = await app.app.inject({
      method: 'PUT',
      url: `/accounts/${id}`,
      headers,
      payload: { notificationSettings: body },
    });
    assert.equal(response.statusCode, 200, response.body);
  }

  /** A client with a main account and three holders: email and SMS, nothing, SMS only. */
  async function bankWithHolders(app: SandboxApp) {
    const { client, headers } = await signInToSandbox(app, 'Ade Stores');
    await sandboxCredit(app.app, client.mainAccountNumber, 90_000);
    const both = await openSubAccount(app.app, headers, client.mainAccountNumber, {
      emailAddress: 'both@ade.test',
      phoneNumber: '+2348031234567',
    });
    const none = await openSubAccount(app.app, headers, client.mainAccountNumber, {
      emailAddress: 'none@ade.test',
      phoneNumber: '+2348031234568',
    });
    const smsOnly = await openSubAccount(app.app, headers, client.mainAccountNumber, {
      emailAddress: 'sms@ade.test',
      phoneNumber: '+2348031234569',
    });
    await settings(app, headers, both._id, {
      emailMonthlyStatement: true,
      smsMonthlyStatement: true,
    });
    await settings(app, headers, none._id, {
      emailMonthlyStatement: false,
      smsMonthlyStatement: false,
    });
    await settings(app, headers, smsOnly._id, {
      emailMonthlyStatement: false,
      smsMonthlyStatement: true,
    });
    // The main account has no holder email (the factory's client has none): no statement email.
    await settings(app, headers, client.mainAccountId, { emailMonthlyStatement: false });
    for (const [account, amount] of [
      [both.accountNumber, 1234.5],
      [both.accountNumber, 20],
      [none.accountNumber, 300],
      [smsOnly.accountNumber, 45],
    ] as const) {
      const sent = await sendTransfer(app.app, headers, {
        debitAccountNumber: client.mainAccountNumber,
        beneficiaryBankCode: BANK_CODE,
        beneficiaryAccountNumber: account,
        amount,
        narration: `Payment to ${account}`,
      });
      assert.equal(sent.statusCode, 200, sent.body);
    }
    return { client, headers, both, none, smsOnly };
  }

  const statementEmails = (to?: string) =>
    receiver.received.filter(
      (mail) => STATEMENT_SUBJECT.test(mail.subject) && (to === undefined || mail.to === to),
    );

  async function statementSms(app: SandboxApp) {
    return app.db.query<{ account_number: string; status: string; text_body: string }>(
      `SELECT account_number, status, text_body FROM alert_messages
        WHERE statement_month IS NOT NULL AND channel = 'sms' ORDER BY account_number`,
    );
  }

  async function until(what: string, done: () => Promise<boolean> | boolean) {
    const deadline = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() >= deadline && sandbox !== undefined) {
        const rows = await sandbox.db.query(
          `SELECT account_number, channel, status, last_error, attempts, statement_month::text
             FROM alert_messages WHERE statement_month IS NOT NULL`,
        );
        const runs = await sandbox.db.query('SELECT * FROM alert_statement_months');
        assert.fail(`timed out waiting for ${what}: ${JSON.stringify({ rows, runs })}`);
      }
      await sleep(50);
    }
  }

  it('a clock move across the month end sends each opted-in holder one statement: PDF by email, closing balance by SMS', async () => {
    const app = await start();
    const { both, none, smsOnly } = await bankWithHolders(app);
    const month = lagosMonthOf(app.clock.now());

    await moveToMonth(app, 1);
    await until('the statement email', () => statementEmails().length >= 1);
    await until('the statement SMS', async () => {
      const sms = await statementSms(app);
      return sms.length === 2 && sms.every((row) => row.status === 'sent');
    });
    // Later rounds, and another move within the month, send nothing more.
    await advanceClock(app.app, 'PT2H');
    await sleep(300);

    const emails = statementEmails();
    assert.equal(emails.length, 1, emails.map((m) => m.to).join());
    const [email] = emails;
    assert.equal(email?.to, 'both@ade.test');
    assert.match(
      email?.subject ?? '',
      new RegExp(`Test Bank statement of account: ${monthName(month)}`),
    );
    assert.match(email?.text ?? '', /Closing balance: +₦1,254\.50/);
    assert.match(email?.html ?? '', /Closing balance<\/th><td>₦1,254\.50/);
    assert.equal(email?.attachments.length, 1);
    const pdf = email?.attachments[0];
    assert.equal(pdf?.contentType, 'application/pdf');
    assert.equal(
      pdf?.filename,
      `statement-${both.accountNumber}-${month}-${month.slice(0, 8)}${lastDay(month)}.pdf`,
    );
    const lines = (await pdfLines(new Uint8Array(pdf?.content ?? []))).flat();
    const totals = statementTotals(lines);
    assert.deepEqual(totals, { opening: 0, credits: 1254.5, debits: 0, closing: 1254.5 });
    assert.equal(totals.opening + totals.credits - totals.debits, totals.closing);
    assert.ok(lines.some((line) => line.includes(`Payment to ${both.accountNumber}`)));

    const sms = await statementSms(app);
    assert.deepEqual(
      sms.map((row) => row.account_number),
      [both.accountNumber, smsOnly.accountNumber].sort(),
    );
    const smsOf = (accountNumber: string) =>
      sms.find((row) => row.account_number === accountNumber)?.text_body ?? '';
    assert.match(smsOf(both.accountNumber), /closing balance ₦1,254\.50/);
    assert.match(smsOf(smsOnly.accountNumber), /closing balance ₦45\.00/);
    assert.equal(statementEmails('none@ade.test').length, 0);
    assert.equal(statementEmails('sms@ade.test').length, 0);
    const [recorded] = await app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM alert_statements WHERE month = $1::date',
      [month],
    );
    assert.equal(Number(recorded?.n), 2, 'the two opted-in sub-accounts');
    assert.ok(!(await statementSms(app)).some((row) => row.account_number === none.accountNumber));
  });

  it('the PDF is made again, byte for byte, when its email is sent again', async () => {
    const app = await start();
    const { client, both } = await bankWithHolders(app);
    const month = lagosMonthOf(app.clock.now());
    await moveToMonth(app, 1);
    await until('the statement email', () => statementEmails().length >= 1);
    const [message] = await app.db.query<{ created_at: Date }>(
      `SELECT created_at FROM alert_messages WHERE statement_month IS NOT NULL AND channel = 'email'`,
    );
    const files = await Promise.all(
      [0, 1].map(async () => {
        const start = lagosDayStart(month);
        const file = await app.services.statementFiles.pdf({
          clientId: client.ibsClientId,
          accountId: both._id,
          from: start,
          to: new Date(lagosDayStart(addMonths(month, 1)).getTime() - 1),
          generatedAt: message?.created_at ?? new Date(),
        });
        const chunks: Buffer[] = [];
        for await (const chunk of file.content) {
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks);
      }),
    );
    assert.ok(files[0]?.equals(files[1] ?? Buffer.alloc(0)), 'the same bytes');
    assert.ok(files[0]?.equals(statementEmails()[0]?.attachments[0]?.content ?? Buffer.alloc(0)));
  });

  it('after downtime the worker sends the months it missed, oldest first, at most MONTHLY_STATEMENTS_CATCH_UP_MONTHS', async () => {
    const app = await start({
      MONTHLY_STATEMENTS_WORKER_ENABLED: 'false',
      MONTHLY_STATEMENTS_CATCH_UP_MONTHS: '2',
    });
    // The bank sent last month's statements (none were due): its first run.
    await app.services.monthlyStatements.composeBatch();
    const { both } = await bankWithHolders(app);
    const month = lagosMonthOf(app.clock.now());
    // Down for three month ends; back on the 5th day of the fourth month.
    await moveToMonth(app, 3, 4);
    assert.equal(statementEmails().length, 0, 'nothing while the worker is down');
    app.workers.start(['monthlyStatements']);
    await until('two statements', () => statementEmails().length >= 2);
    await sleep(300);

    // Sent a few at once: they may arrive in any order.
    const emails = statementEmails('both@ade.test').sort((a, b) =>
      (a.attachments[0]?.filename ?? '').localeCompare(b.attachments[0]?.filename ?? ''),
    );
    assert.deepEqual(
      emails.map((mail) => mail.subject.replace(/.*: /, '')),
      [monthName(addMonths(month, 1)), monthName(addMonths(month, 2))],
      'the two latest ended months; the third is past the bound',
    );
    const runs = await app.db.query<{ month: string; accounts: number }>(
      `SELECT to_char(month, 'YYYY-MM-DD') AS month, accounts FROM alert_statement_months
        WHERE completed_at IS NOT NULL ORDER BY month`,
    );
    assert.deepEqual(
      runs.map((run) => run.month),
      [addMonths(month, -1), addMonths(month, 1), addMonths(month, 2)],
    );
    // A month with no entry: opening = closing = the balance carried over.
    const lines = (await pdfLines(new Uint8Array(emails[1]?.attachments[0]?.content ?? []))).flat();
    assert.deepEqual(statementTotals(lines), {
      opening: 1254.5,
      credits: 0,
      debits: 0,
      closing: 1254.5,
    });
    assert.ok(lines.some((line) => line.includes(both.accountNumber)));
  });
});

function lastDay(month: string): string {
  const next = lagosDayStart(addMonths(month, 1));
  return new Date(next.getTime()).toISOString().slice(8, 10);
}
