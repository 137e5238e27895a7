// PostgreSQL only: two server processes on one database, each with its own sandbox clock moved
// across the same month end at the same moment, run the monthly statements worker at once;
// every opted-in account still gets exactly one statement. PGlite is one session inside one process: it cannot be shared.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMonths, lagosMonthOf, monthName } from '../../src/modules/alerts/statement-months.ts';
import { lagosDayStart } from '../../src/shared/lagos-time.ts';
import { SmtpReceiver } from '../smtp-receiver.ts';
import { callApi, ServerFixture, sleep } from './server-fixture.ts';

const CLIENTS = 24;

describe('monthly statements with two worker processes (PostgreSQL)', { timeout: 240_000 }, () => {
  const fixture = new ServerFixture('monthly-workers', {
    adminToken: 'monthly-workers-admin-token-0123456789abcdefghij',
    tokenSigningSecret: 'monthly-workers-signing-secret-0123456789abcdefghij',
    publicBaseUrl: 'http://127.0.0.1',
  });
  const receiver = new SmtpReceiver();

  const startServer = () =>
    fixture.startServer({
      SMTP_URL: receiver.url(),
      // Small batches, so the two workers meet on many of them.
      MONTHLY_STATEMENTS_BATCH_SIZE: '3',
      MONTHLY_STATEMENTS_SEND_BATCH_SIZE: '2',
      ALERTS_POLL_INTERVAL_MS: '50',
    });

  const admin = async (baseUrl: string, method: string, url: string, body?: object) =>
    (
      await callApi(
        baseUrl,
        method,
        url,
        {
          authorization: `Bearer ${fixture.secrets.adminToken}`,
        },
        body,
      )
    ).data;

  /** Moves a server's clock to an hour into the month after the one it reads now. */
  async function advanceIntoNextMonth(baseUrl: string) {
    const clock = await admin(baseUrl, 'GET', '/admin/sandbox/clock');
    const now = new Date(String(clock.now));
    const target = lagosDayStart(addMonths(lagosMonthOf(now), 1)).getTime() + 3_600_000;
    const seconds = Math.ceil((target - now.getTime()) / 1000);
    await admin(baseUrl, 'POST', '/admin/sandbox/clock', { advance: `PT${seconds}S` });
    return lagosMonthOf(now);
  }

  const statementEmails = () =>
    receiver.received.filter((mail) => /statement of account/.test(mail.subject));

  before(async () => {
    await fixture.open();
    await receiver.start();
  });

  after(async () => {
    await fixture.close();
    await receiver.stop();
  });

  test('each opted-in account gets one statement, whichever worker reaches it', async () => {
    const first = await startServer();
    const second = await startServer();
    const addresses: string[] = [];
    for (let i = 0; i < CLIENTS; i += 1) {
      const address = `owner${i}@monthly.test`;
      const client = await admin(first.baseUrl, 'POST', '/admin/clients', {
        name: `Monthly ${i} Ltd`,
        emailAddress: address,
      });
      const account = client.mainAccount as { accountNumber: string };
      await admin(first.baseUrl, 'POST', '/admin/sandbox/credits', {
        accountNumber: account.accountNumber,
        amount: 1000 + i,
      });
      addresses.push(address);
    }

    // Both clocks cross the month end at once: both workers wake to the same month.
    const [month] = await Promise.all([
      advanceIntoNextMonth(first.baseUrl),
      advanceIntoNextMonth(second.baseUrl),
    ]);
    const deadline = Date.now() + 90_000;
    const ours = () => statementEmails().filter((mail) => mail.to.endsWith('@monthly.test'));
    while (ours().length < CLIENTS) {
      assert.ok(Date.now() < deadline, `only ${ours().length} statements arrived`);
      await sleep(100);
    }
    // More rounds of both (another clock move within the month) send nothing more.
    await Promise.all(
      [first, second].map(({ baseUrl }) =>
        admin(baseUrl, 'POST', '/admin/sandbox/clock', { advance: 'PT1H' }),
      ),
    );
    await sleep(1_000);

    const emails = statementEmails().filter((mail) => mail.subject.endsWith(monthName(month)));
    const recipients = emails.map((mail) => mail.to);
    assert.equal(new Set(recipients).size, recipients.length, 'no account twice');
    assert.deepEqual(
      recipients.filter((to) => to.endsWith('@monthly.test')).sort(),
      [...addresses].sort(),
      "one statement per account (the sandbox fixtures' accounts get theirs too)",
    );
    assert.equal(new Set(emails.map((mail) => mail.messageId)).size, emails.length);
    for (const mail of emails) {
      assert.equal(mail.attachments[0]?.contentType, 'application/pdf');
    }
    const [counts] = await fixture.db.query<{ recorded: number; emails: number; accounts: number }>(
      `SELECT (SELECT count(*)::int FROM alert_statements WHERE month = $1::date) AS recorded,
              (SELECT count(*)::int FROM alert_messages
                WHERE statement_month = $1::date AND channel = 'email') AS emails,
              (SELECT count(DISTINCT account_id)::int FROM alert_messages
                WHERE statement_month = $1::date) AS accounts`,
      [month],
    );
    assert.equal(Number(counts?.emails), emails.length);
    assert.equal(Number(counts?.recorded), Number(counts?.accounts));
  });
});
