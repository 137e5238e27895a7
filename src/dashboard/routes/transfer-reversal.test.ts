/**
 * "Reverse this transfer" on a transfer's page: offered on a Completed intra-bank transfer's
 * sender side only; it reverses through the admin API as the signed-in operator, with the reason
 * the form requires; the beneficiary's credit then shows the lien it left. Another client's
 * transfer, or none given a reason, stays as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, sendTransfer, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

const OUR_BANK = '999240';

describe('dashboard: reverse an intra-bank transfer', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let sender: Awaited<ReturnType<typeof signedInClient>>;
  let beneficiary: Awaited<ReturnType<typeof signedInClient>>;
  const transfersOf = (client: typeof sender) =>
    `/dashboard/clients/${client.client.ibsClientId}/transfers`;

  const statusOf = async (id: string) =>
    (
      await testApp.db.query<{ status: string }>('SELECT status FROM transfers WHERE id = $1', [id])
    )[0]?.status;

  /** An intra-bank transfer from the sender to the beneficiary: its row and its twin's id. */
  async function sendAcross(amount: number): Promise<{ id: string; twinId: string }> {
    const sent = await sendTransfer(testApp.app, sender.headers, {
      debitAccountNumber: sender.client.mainAccountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: beneficiary.client.mainAccountNumber,
      amount,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const [twin] = await testApp.db.query<{ id: string }>(
      "SELECT id FROM transfers WHERE session_id = $1 AND type = 'Inwards'",
      [sent.json().data.sessionId],
    );
    assert.ok(twin);
    return { id: sent.json().data._id, twinId: twin.id };
  }

  before(async () => {
    testApp = await buildTestApp();
    sender = await signedInClient(testApp, 'Sender Foods');
    beneficiary = await signedInClient(testApp, 'Payee Foods', 1);
    await sandboxCredit(testApp.app, sender.client.mainAccountNumber, 2_000);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('is offered on a Completed intra-bank transfer’s sender side only', async () => {
    const { id, twinId } = await sendAcross(10);
    const nip = await sendTransfer(testApp.app, sender.headers, {
      debitAccountNumber: sender.client.mainAccountNumber,
      amount: 10,
    });
    const offered = async (path: string) =>
      (await browser.get(path)).body.includes('Reverse this transfer</button>');
    assert.deepEqual(
      [
        await offered(`${transfersOf(sender)}/${id}`),
        await offered(`${transfersOf(beneficiary)}/${twinId}`),
        await offered(`${transfersOf(sender)}/${nip.json().data._id}`),
      ],
      [true, false, false],
    );
  });

  it('reverses it as the operator: both sides Reversed, the lien shown on the credit', async () => {
    const { id, twinId } = await sendAcross(500);
    const spent = await sendTransfer(testApp.app, beneficiary.headers, {
      debitAccountNumber: beneficiary.client.mainAccountNumber,
      amount: 389.25, // ₦400 with the fee and VAT: it lacks some of the ₦500 now
    });
    assert.equal(spent.statusCode, 200, spent.body);
    const story = `${transfersOf(sender)}/${id}`;
    await browser.get(story);
    const reversed = await browser.post(`${story}/reversal`, { reason: 'Wrong beneficiary' });
    assert.equal(reversed.statusCode, 303);
    assert.equal(reversed.headers.location, story);
    const page = await browser.get(story);
    assert.match(
      page.body,
      /reversed: ₦500\.00 back to \d{10}\. The beneficiary lacked ₦\d+\.\d{2}: a lien/,
    );
    assert.ok(!page.body.includes('Reverse this transfer</button>'), 'no button once Reversed');
    assert.deepEqual([await statusOf(id), await statusOf(twinId)], ['Reversed', 'Reversed']);
    const twinPage = await browser.get(`${transfersOf(beneficiary)}/${twinId}`);
    assert.match(twinPage.body, /The lien it left/);
    assert.match(twinPage.body, /Reversal of \d{30}: Wrong beneficiary/);
    const audit = await testApp.services.auditLog.list({
      actor: 'break-glass:olu',
      offset: 0,
      limit: 50,
    });
    assert.ok(
      audit.events.some(
        (event) =>
          event.action === 'admin.post /admin/transfers/:id/reversal' && event.target === id,
      ),
      'the audit trail names the operator and the transfer',
    );
  });

  it('refuses without a reason, and another client’s transfer: nothing moves', async () => {
    const { id } = await sendAcross(20);
    const story = `${transfersOf(sender)}/${id}`;
    await browser.get(story);
    const withoutReason = await browser.post(`${story}/reversal`, { reason: ' ' });
    assert.match(
      (await browser.get(String(withoutReason.headers.location))).body,
      /Say why the transfer is reversed\./,
    );
    const foreign = await browser.post(`${transfersOf(beneficiary)}/${id}/reversal`, {
      reason: 'Sneaky',
    });
    assert.equal(foreign.headers.location, transfersOf(beneficiary));
    assert.equal(await statusOf(id), 'Completed');
  });
});
