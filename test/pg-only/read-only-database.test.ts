// PostgreSQL only: the database turns read-only (what an operator does when its disk fills, and
// what a demoted primary is), then writable again. Writes answer 503 DATABASE_UNAVAILABLE with
// Retry-After, never 500; reads keep working; nothing is half-applied; and the server carries on
// by itself when the database takes writes again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAdminStatement } from '../../src/db/pg-admin.ts';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { accountBalance, sandboxCredit, sendTransfer, signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { TEST_DATABASE_URL } from '../test-db.ts';

describe('a read-only database', () => {
  let testApp: TestApp;
  let database: string;

  before(async () => {
    testApp = await buildTestApp({ ACCESS_TOKEN_TTL_SECONDS: '86400' }, { poolSize: 3 });
    const [row] = await testApp.db.query<{ name: string }>('SELECT current_database() AS name');
    database = row?.name ?? '';
  });
  after(async () => {
    await runAdminStatement(TEST_DATABASE_URL ?? '', `ALTER DATABASE ${database} RESET ALL`);
    await testApp?.close();
  });

  /** New sessions take the database's setting: end the app's sessions so they reconnect. */
  async function setReadOnly(readOnly: boolean) {
    await runAdminStatement(
      TEST_DATABASE_URL ?? '',
      readOnly
        ? `ALTER DATABASE ${database} SET default_transaction_read_only = on`
        : `ALTER DATABASE ${database} RESET default_transaction_read_only`,
    );
    await runAdminStatement(
      TEST_DATABASE_URL ?? '',
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
    );
  }

  it('answers writes 503 with Retry-After, keeps reads, and recovers by itself', async () => {
    const { client, headers } = await signedInClient(testApp);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 5_000);
    const [before] = await testApp.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transfers',
    );
    const balance = await accountBalance(testApp.app, headers, client.mainAccountNumber);

    await setReadOnly(true);
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      answers.push(
        await testApp.app.inject({
          method: 'POST',
          url: '/accounts',
          headers,
          payload: { suffix: `Read Only ${attempt}` },
        }),
      );
    }
    for (const answer of answers) {
      assert.equal(answer.statusCode, 503, answer.body);
      assert.equal(answer.json().code, 'DATABASE_UNAVAILABLE');
      assert.ok(Number(answer.headers['retry-after']) > 0);
    }
    const transfer = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      amount: 100,
    }).catch((error: Error) => error);
    // The name enquiry (a write) or the transfer itself: either way a 503, never a 500.
    if (transfer instanceof Error) {
      assert.match(transfer.message, /DATABASE_UNAVAILABLE/);
    } else {
      assert.equal(transfer.statusCode, 503, transfer.body);
    }
    // Reads still work, and the refused writes moved nothing.
    assert.equal(await accountBalance(testApp.app, headers, client.mainAccountNumber), balance);

    await setReadOnly(false);
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      recovered = (
        await sendTransfer(testApp.app, headers, {
          debitAccountNumber: client.mainAccountNumber,
          amount: 100,
        }).catch(() => ({ statusCode: 0 }))
      ).statusCode;
    }
    assert.equal(recovered, 200);
    const [afterward] = await testApp.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transfers',
    );
    assert.equal(afterward?.n, (before?.n ?? 0) + 1, 'only the transfer made after recovery');
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  });
});
