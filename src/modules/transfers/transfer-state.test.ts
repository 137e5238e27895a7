import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxCredit, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { InvariantError } from '../../shared/invariant.ts';
import type { TransferStatus } from './transfer.ts';
import { canMove, initialStatus, move } from './transfer-state.ts';

const ALL: TransferStatus[] = ['Created', 'Processing', 'Completed', 'Failed', 'Reversed'];

describe('transfer state machine', () => {
  it('allows exactly the documented moves', () => {
    const allowed = ALL.flatMap((from) =>
      ALL.filter((to) => canMove(from, to)).map((to) => `${from}>${to}`),
    );
    assert.deepEqual(allowed, [
      'Processing>Processing',
      'Processing>Completed',
      'Processing>Failed',
      'Completed>Reversed',
    ]);
  });

  it('refuses anything else as a bug; Failed and Reversed are final', () => {
    assert.throws(() => move('Failed', 'Completed'), InvariantError);
    assert.throws(() => move('Completed', 'Failed'), InvariantError);
    assert.throws(() => move('Completed', 'Processing'), InvariantError);
    assert.throws(() => move('Failed', 'Reversed'), InvariantError);
    assert.throws(() => move('Processing', 'Reversed'), InvariantError);
    assert.throws(() => move('Reversed', 'Completed'), InvariantError);
    assert.equal(move('Processing', 'Completed'), 'Completed');
    assert.equal(move('Completed', 'Reversed'), 'Reversed');
  });

  describe('the code obeys it', () => {
    let testApp: TestApp;
    let headers: Record<string, string>;
    let accountNumber: string;
    let payee: string;

    const call = (url: string, payload: object) =>
      testApp.app.inject({ method: 'POST', url, headers, payload });

    /** Sends a transfer, then asks its status until it is final: every status it showed. */
    async function lifeOf(bankCode: string, beneficiary: string, amount: number) {
      const enquiry = await call('/transfers/name-enquiry', {
        bankCode,
        accountNumber: beneficiary,
      });
      const sent = await call('/transfers', {
        nameEnquiryReference: enquiry.json().data.sessionId,
        debitAccountNumber: accountNumber,
        beneficiaryBankCode: bankCode,
        beneficiaryAccountNumber: beneficiary,
        amount,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const statuses: TransferStatus[] = [sent.json().data.status];
      for (let query = 0; query < 5 && statuses.at(-1) === 'Processing'; query += 1) {
        testApp.clock.advanceSeconds(60);
        const status = await call('/transfers/status', { sessionId: sent.json().data.sessionId });
        statuses.push(status.json().data.status);
      }
      return statuses;
    }

    function assertObeyed(statuses: TransferStatus[], born: TransferStatus, final: TransferStatus) {
      assert.equal(statuses[0], born, statuses.join(' > '));
      for (let index = 1; index < statuses.length; index += 1) {
        const from = statuses[index - 1] as TransferStatus;
        const to = statuses[index] as TransferStatus;
        assert.ok(from === to || canMove(from, to), `${from} > ${to} in ${statuses.join(' > ')}`);
      }
      assert.equal(statuses.at(-1), final);
    }

    before(async () => {
      testApp = await buildTestApp();
      const signedIn = await signedInClient(testApp);
      headers = signedIn.headers;
      accountNumber = signedIn.client.mainAccountNumber;
      await sandboxCredit(testApp.app, accountNumber, 50_000);
      payee = (await call('/accounts', { suffix: 'Payee' })).json().data.accountNumber;
    });
    after(() => testApp.close());

    it('intra-bank transfers and credits from other banks are born Completed', async () => {
      assertObeyed(await lifeOf('999240', payee, 10), initialStatus('intraBank'), 'Completed');
      const credit = await sandboxCredit(testApp.app, payee, 5);
      assert.equal(credit.status, initialStatus('inbound'));
    });

    it('NIP transfers are born Processing and settle once, whatever the network says', async () => {
      // Sandbox NIP outcomes by the kobo part of the amount (docs/sandbox-nip.md).
      const cases: [number, TransferStatus][] = [
        [100, 'Completed'],
        [100.05, 'Failed'],
        [100.97, 'Completed'],
        [100.01, 'Failed'],
        [100.09, 'Completed'],
      ];
      for (const [amount, final] of cases) {
        const statuses = await lifeOf('000013', '0123456789', amount);
        // A NIP transfer answered at once shows its final status; it was Processing before.
        assertObeyed(['Processing', ...statuses], initialStatus('nip'), final);
      }
    });
  });
});
